// Each built-in network's contract against what publishing accepts: the post types it declares are
// exactly the routes it is on, and its caption, field and media limits are where validation draws the
// line (at the limit accepted, one over refused).
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { PlatformHttp } from '../../src/platforms/http.ts';
import type { NetworkContract } from '../../src/platforms/contract.ts';
import type { PostType } from '../../src/platforms/publishing.ts';
import { Networks, NETWORKS } from '../../src/platforms/registry.ts';
import type { MediaRow } from '../../src/media/records.ts';
import { checkMedia } from '../../src/publishing/media-check.ts';
import { planTargets } from '../../src/publishing/plan.ts';
import type { PostBody } from '../../src/publishing/schemas.ts';
import type { AppError } from '../../src/errors.ts';

const networks = new Networks();
const POST_TYPES: PostType[] = ['text', 'image', 'carousel', 'video'];

/** What a network needs besides text and media to plan at all (its destination). */
const NEEDS: Record<string, Record<string, unknown>> = {
  facebook: { facebook: { facebook_page_ids: ['page-1'] } },
  pinterest: { pinterest: { board_id: 'board-1' } },
};
/** Where the caption limit (capabilities.text) applies, when it is not default_text: Pinterest's is the pin title. */
const CAPTION_AT: Record<string, (text: string) => Record<string, unknown>> = {
  pinterest: (text) => ({ pinterest: { board_id: 'board-1', pinterest_text: text } }),
};

const MEDIA: Record<PostType, Record<string, unknown>> = {
  text: {},
  image: { default_image_id: 'img-1' },
  carousel: { image_ids: ['img-1', 'img-2'] },
  video: { video_id: 'vid-1' },
};

function body(n: NetworkContract, postType: PostType, extra: Record<string, unknown> = {}): PostBody {
  const own = { ...NEEDS[n.slug], ...extra };
  const merged =
    n.slug in own && NEEDS[n.slug]?.[n.slug]
      ? { ...own, [n.slug]: { ...(NEEDS[n.slug]![n.slug] as object), ...(own[n.slug] as object) } }
      : own;
  return { platforms: [n.slug], default_text: 'Hello', ...MEDIA[postType], ...merged } as PostBody;
}

const plan = (n: NetworkContract, postType: PostType, extra?: Record<string, unknown>) => () =>
  planTargets({ networks, postType, body: body(n, postType, extra) });
/** The post type its text limits are checked on: one with a caption (not video) when it has one. */
const textRoute = (n: NetworkContract): PostType => n.capabilities.postTypes.find((t) => t !== 'video') ?? 'video';

function row(kind: 'image' | 'video', format: string, over: Partial<MediaRow> = {}): MediaRow {
  return {
    id: `${kind}-${format}`,
    mediaType: kind,
    format,
    fileSize: 1000,
    width: 1000,
    height: 1000,
    durationMs: kind === 'video' ? 10_000 : null,
    ...over,
  } as MediaRow;
}
/** The field-level refusal of these media (its messages), or null when they pass. */
function check(n: NetworkContract, postType: PostType, items: MediaRow[]): string | null {
  try {
    checkMedia(
      n,
      postType,
      items.map((r) => ({ row: r, field: undefined })),
      undefined,
      ['body'],
    );
    return null;
  } catch (err) {
    return JSON.stringify((err as AppError).detail);
  }
}

describe.each(NETWORKS.map((n) => [n.slug, n] as const))(
  '%s: declared capabilities agree with publishing',
  (_slug, n) => {
    it('is what its adapter declares (one source)', () => {
      const adapter = n.adapter({
        http: {} as PlatformHttp,
        config: { urls: n.hosts },
        clock: () => new Date(),
        logger: pino({ level: 'silent' }),
      });
      expect(adapter).toMatchObject({ platform: n.slug, displayName: n.displayName, auth: { kind: n.authKind } });
      expect(adapter.capabilities).toBe(n.capabilities);
    });

    it('is on exactly the routes of its declared post types', () => {
      for (const t of POST_TYPES) {
        if (n.capabilities.postTypes.includes(t)) expect(plan(n, t)).not.toThrow();
        else expect(plan(n, t)).toThrow(`This platform does not support ${t} posting.`);
      }
    });

    it('draws the caption limit where it declares it', () => {
      const limit = n.capabilities.text;
      expect(limit).toBeDefined();
      const at = (text: string) => (CAPTION_AT[n.slug] ?? ((t: string) => ({ default_text: t })))(text);
      const route = textRoute(n);
      expect(plan(n, route, at('a'.repeat(limit!.max)))).not.toThrow();
      expect(plan(n, route, at('a'.repeat(limit!.max + 1)))).toThrow(`is ${limit!.max}. Received ${limit!.max + 1}`);
      if (limit!.maxBytes) {
        // Family emoji: one grapheme, 18 UTF-8 bytes.
        const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
        const fits = Math.floor(limit!.maxBytes / 18);
        expect(plan(n, route, at(family.repeat(fits)))).not.toThrow();
        expect(plan(n, route, at(family.repeat(fits + 1)))).toThrow(
          `Max text size for ${n.slug} is ${limit!.maxBytes} UTF-8 bytes`,
        );
      }
    });

    it('draws each declared field limit in its override', () => {
      for (const [field, limit] of Object.entries(n.fields ?? {})) {
        const route = textRoute(n);
        const own = (text: string) => ({ [n.slug]: { [field]: text } });
        expect(plan(n, route, own('b'.repeat(limit.max)))).not.toThrow();
        expect(plan(n, route, own('b'.repeat(limit.max + 1)))).toThrow(String(limit.max + 1));
      }
    });

    it('takes carousels of exactly its declared size', () => {
      if (!n.capabilities.postTypes.includes('carousel')) return;
      const { min, max } = n.media.carousel;
      const images = (k: number) =>
        Array.from({ length: k }, (_, i) => row('image', n.media.imageFormats[0]!, { id: `img-${i}` }));
      expect(check(n, 'carousel', images(min))).toBeNull();
      expect(check(n, 'carousel', images(max))).toBeNull();
      expect(check(n, 'carousel', images(max + 1))).toContain(`carousels take ${min} to ${max} images`);
      if (min > 1) expect(check(n, 'carousel', images(min - 1))).toContain(`carousels take ${min} to ${max} images`);
    });

    it('takes exactly its declared media formats and sizes', () => {
      const { media } = n;
      if (n.capabilities.postTypes.includes('image')) {
        for (const f of media.imageFormats) expect(check(n, 'image', [row('image', f)])).toBeNull();
        expect(check(n, 'image', [row('image', 'bmp')])).toContain('images only');
        expect(check(n, 'image', [row('image', media.imageFormats[0]!, { fileSize: media.maxImageBytes })])).toBeNull();
        expect(
          check(n, 'image', [row('image', media.imageFormats[0]!, { fileSize: media.maxImageBytes + 1 })]),
        ).toContain('images up to');
      }
      if (n.capabilities.postTypes.includes('video')) {
        for (const f of media.videoFormats) expect(check(n, 'video', [row('video', f)])).toBeNull();
        expect(check(n, 'video', [row('video', 'flv')])).toContain('videos only');
        const ok = row('video', media.videoFormats[0]!, {
          fileSize: media.maxVideoBytes,
          durationMs: media.videoSeconds.max * 1000,
        });
        expect(check(n, 'video', [ok])).toBeNull();
        expect(check(n, 'video', [{ ...ok, fileSize: media.maxVideoBytes + 1 }])).toContain('videos up to');
        expect(check(n, 'video', [{ ...ok, durationMs: media.videoSeconds.max * 1000 + 1000 }])).toContain(
          `videos of ${media.videoSeconds.min} s to ${media.videoSeconds.max} s`,
        );
      }
    });
  },
);
