// What a composer needs to know of each network, read from its contract (never copied): how its text is counted and
// how long it may be, its secondary text fields' limits, its media limits, where else than the account it posts
// (pages, organizations, boards, channels) and the shape of its override object. GET /unified/platforms answers it,
// so the web app counts and checks with the rules publishing validates with.
import { z } from 'zod';
import type { NetworkContract } from './contract.ts';
import type { TextLimit } from './types.ts';

export interface TextRule {
  max: number;
  unit: TextLimit['unit'];
  /** A UTF-8 size limit on top of the count. */
  max_bytes?: number;
}

/** The JSON Schema of an override object (z.toJSONSchema of a z.object: always with its properties). */
export interface ObjectJsonSchema {
  type?: string;
  properties: Record<string, { type?: string | string[]; description?: string; [k: string]: unknown }>;
  required?: string[];
  [k: string]: unknown;
}

export interface ComposerRules {
  slug: string;
  display_name: string;
  auth_kind: NetworkContract['authKind'];
  post_types: NetworkContract['capabilities']['postTypes'];
  /** The caption or post text; null when the network takes none. */
  text: TextRule | null;
  /** Secondary text fields of the override object (titles, descriptions), by field name. */
  fields: Record<string, TextRule>;
  media: {
    image_formats: string[];
    max_image_bytes: number;
    max_image_pixels?: number;
    image_aspect?: { min: number; max: number };
    preferred_image?: { width: number; height: number };
    carousel: { min: number; max: number };
    video_formats: string[];
    max_video_bytes: number;
    video_seconds: { min: number; max: number };
  };
  /** Where the network posts besides the account, and the query parameter the read routes name them with. */
  destinations: {
    kind: 'page' | 'organization' | 'board' | 'channel';
    query_param: string;
    publish_field?: string;
  } | null;
  /** Whether posts wait for the network's processing (videos) before they are live. */
  async_processing: boolean;
  /** JSON Schema of the body's `<slug>` override object; null when the network has none. */
  override_schema: ObjectJsonSchema | null;
  /** The first comment's limit and form (a comment, or a reply in the thread); null when the network takes none. */
  first_comment: (TextRule & { form: 'comment' | 'reply' }) | null;
}

const textRule = (t: TextLimit): TextRule => ({
  max: t.max,
  unit: t.unit,
  ...(t.maxBytes !== undefined ? { max_bytes: t.maxBytes } : {}),
});

export function composerRules(n: NetworkContract): ComposerRules {
  const m = n.media;
  let override: ObjectJsonSchema | null = null;
  if (n.override) {
    const { $schema: _drop, ...json } = z.toJSONSchema(n.override, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    override = { properties: {}, ...json };
  }
  return {
    slug: n.slug,
    display_name: n.displayName,
    auth_kind: n.authKind,
    post_types: [...n.capabilities.postTypes],
    text: n.capabilities.text ? textRule(n.capabilities.text) : null,
    fields: Object.fromEntries(Object.entries(n.fields ?? {}).map(([k, v]) => [k, textRule(v)])),
    media: {
      image_formats: [...m.imageFormats],
      max_image_bytes: m.maxImageBytes,
      ...(m.maxImagePixels !== undefined ? { max_image_pixels: m.maxImagePixels } : {}),
      ...(m.imageAspect ? { image_aspect: { ...m.imageAspect } } : {}),
      ...(m.preferredImage ? { preferred_image: { ...m.preferredImage } } : {}),
      carousel: { ...m.carousel },
      video_formats: [...m.videoFormats],
      max_video_bytes: m.maxVideoBytes,
      video_seconds: { ...m.videoSeconds },
    },
    destinations: n.reads
      ? {
          kind: n.reads.kind,
          query_param: n.reads.param,
          ...(n.publishScope ? { publish_field: n.publishScope.destinations } : {}),
        }
      : null,
    async_processing: n.capabilities.asyncProcessing,
    override_schema: override,
    first_comment: n.firstComment ? { ...textRule(n.firstComment.limit), form: n.firstComment.form } : null,
  };
}
