// The unified post body, one zod schema per route, built from the registry's networks (each adds its
// override object and any top-level fields it reads) and shared by REST, OpenAPI and (later) the tools.
// Every string, list and map is capped here; each network's own limits are checked when planning.
import { z } from 'zod';
import type { CommonBody, NetworkContract } from '../platforms/contract.ts';
import { id, postText, ref } from '../platforms/fields.ts';
import type { PostType } from '../platforms/publishing.ts';
import { isRealDateTime } from '../date-time.ts';

export { hasVisibleText, postText } from '../platforms/fields.ts';

/** The one date-time schema of every route that takes a scheduled_time (checked against the calendar). */
export const dateTime = z
  .string()
  .max(64)
  .refine(
    isRealDateTime,
    'Input should be an ISO 8601 date-time with a UTC offset that exists on the calendar (e.g. 2026-01-31T09:00:00Z or 2026-01-31T10:00:00+01:00).',
  )
  .describe('ISO 8601 date-time with a UTC offset, e.g. 2026-01-31T09:00:00Z');

export type PostBody = CommonBody;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A post body with every explicit `null` left out, at any depth of its objects (override objects,
 * per-page maps): the documented parameter reference gives `null` as the default of optional fields, so
 * clients send it to mean "not set". Nulls inside lists are kept (and refused by the schema), and a
 * required field sent as null is then missing.
 */
export function withoutNulls<T>(body: T): T {
  if (!isPlainObject(body)) return body;
  const root: Record<string, unknown> = {};
  // A stack of its own instead of recursion: no nesting can overflow the call stack.
  const stack: [Record<string, unknown>, Record<string, unknown>][] = [[body, root]];
  while (stack.length) {
    const [from, to] = stack.pop()!;
    for (const [k, v] of Object.entries(from)) {
      if (v === null) continue;
      if (isPlainObject(v)) stack.push([v, (to[k] = {})]);
      else to[k] = v;
    }
  }
  return root as T;
}

const utmParams = {
  campaign: z.string().trim().min(1).max(200).optional().describe('utm_campaign'),
  medium: z.string().trim().min(1).max(200).optional().describe('utm_medium (default: social)'),
  content: z.string().trim().min(1).max(200).optional().describe('utm_content'),
};

/** UTM parameters added to the text's http(s) links when it goes out (utm_source: the network); see utm.ts. */
export const utmSchema = z
  .object({
    ...utmParams,
    networks: z
      .record(z.string().max(200), z.union([z.object(utmParams), z.literal(false)]))
      .optional()
      .describe("Per-network overrides of these parameters; false: no UTM for that network's links"),
  })
  .describe(
    'UTM parameters for the links in the text, added when it is published (the stored text stays as written); utm_source is the network',
  );

const common = {
  platforms: z.array(z.string().max(200)).max(20),
  default_text: postText(3000).optional(),
  visibility: z.enum(['PUBLIC', 'CONNECTIONS']).optional(),
  scheduled_time: dateTime.optional(),
  draft: z.boolean().optional(),
  draft_platforms: z.array(z.string().max(200)).max(20).optional(),
  utm: utmSchema.optional(),
  first_comment: postText()
    .optional()
    .describe(
      'Posted as a comment under the post once it is published (a reply in its thread on networks where that is the form); each override may carry its own, "" for none.',
    ),
};

export const carouselImageIds = z.array(id).min(2).max(20);
export const videoFields = { video_id: ref.optional(), video_url: ref.optional() };

/**
 * Every post route's fields at once (for the drafts and scheduled-posts documents; handlers parse with the post type's
 * own).
 */
export function anyPostBody(networks: readonly NetworkContract[]) {
  return postBodies(networks).image.extend({ image_ids: carouselImageIds.optional(), ...videoFields });
}

export interface PostBodies {
  text: z.ZodObject;
  image: z.ZodObject;
  carousel: z.ZodObject;
  video: z.ZodObject;
}

function build(networks: readonly NetworkContract[]): PostBodies {
  const shape = (postType: PostType): z.ZodRawShape => {
    const own: Record<string, z.ZodType> = {};
    for (const n of networks) Object.assign(own, n.topLevel?.every, n.topLevel?.[postType]);
    for (const n of networks) {
      // Each override may carry its own scheduled_time (that network then goes out at another time) and its own first
      // comment ("" for none on that network).
      if (n.override)
        own[n.slug] = n.override
          .extend({ scheduled_time: dateTime.optional(), first_comment: postText().optional() })
          .optional();
    }
    return { ...common, ...own };
  };
  return {
    text: z.object({ ...shape('text'), default_text: postText(3000).min(1) }),
    image: z.object({ ...shape('image'), default_image_id: ref.optional(), default_image_url: ref.optional() }),
    carousel: z.object({ ...shape('carousel'), image_ids: carouselImageIds }),
    video: z.object({ ...shape('video'), ...videoFields }),
  };
}

const built = new WeakMap<readonly NetworkContract[], PostBodies>();

/** The four routes' body schemas for these networks (built once per list). */
export function postBodies(networks: readonly NetworkContract[]): PostBodies {
  let b = built.get(networks);
  if (!b) built.set(networks, (b = build(networks)));
  return b;
}
