// The composer's AI help, without the DOM: what each generation costs (the plan's ai_credits, reserved per network),
// which media a generation reads, and how generated copy and images go into the composer's state.
import type { ComposerState, PickedMedia } from './post.ts';
import { TEXT_OVERRIDE } from './post.ts';

/** Credits per network, as the AI routes charge them: copy (generation_long) 2, an image (image_generate) 5. */
export const AI_COSTS = { copy: 2, image: 5 } as const;

/** What one network answered: its copy (or image), or why it failed. */
export type PerNetwork<T> = Record<string, T | { error: string }>;

export interface GeneratedImage {
  image_url: string;
  media_id: string;
  image_prompt?: string;
}

/** The networks that failed, with the API's reason. */
export function failuresOf(data: PerNetwork<unknown>): { network: string; error: string }[] {
  return Object.entries(data).flatMap(([network, r]) =>
    r && typeof r === 'object' && 'error' in r ? [{ network, error: String((r as { error: unknown }).error) }] : [],
  );
}

/**
 * Puts generated copy into the composer: a network with a text of its own gets its copy there; the common text
 * takes the copy of the first network without one (or, for a single network, its copy).
 */
export function applyCopies(
  s: ComposerState,
  data: PerNetwork<{ content: string }>,
  networks: string[],
): ComposerState {
  const copies = networks.flatMap((n) => {
    const r = data[n];
    return r && 'content' in r ? [{ network: n, content: r.content }] : [];
  });
  if (!copies.length) return s;
  const common = copies.find((c) => !TEXT_OVERRIDE[c.network]) ?? (copies.length === 1 ? copies[0] : undefined);
  const text = common ? common.content : s.text;
  const overrides = { ...s.overrides };
  for (const c of copies) {
    if (!TEXT_OVERRIDE[c.network]) continue;
    if (c.content === text) delete overrides[c.network];
    else overrides[c.network] = c.content;
  }
  return { ...s, text, overrides };
}

/** The generated image as a picked medium of the post (added once). */
export function withImage(media: PickedMedia[], image: GeneratedImage, filename: string): PickedMedia[] {
  if (media.some((m) => m.media_id === image.media_id)) return media;
  return [...media, { media_id: image.media_id, media_type: 'image', public_url: image.image_url, filename }];
}

/** The medium copy is written from: the post's video if it has one, else its first image. */
export function sourceMedium(media: PickedMedia[]): PickedMedia | undefined {
  return media.find((m) => m.media_type === 'video') ?? media.find((m) => m.media_type === 'image');
}
