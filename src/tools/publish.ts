import { z } from 'zod';
import { AppError } from '../errors.ts';
import type { PostType } from '../platforms/publishing.ts';
import { exampleOverrides, exampleSlugs, listText } from '../platforms/naming.ts';
import { NETWORKS } from '../platforms/registry.ts';
import { parsePostBody, postBodies, type PostBody, withoutNulls } from '../publishing/index.ts';
import { defineTool } from './tool.ts';
import { splitList } from '../platforms/arguments.ts';
import { platformList, stringList } from './args.ts';

const FIELD = 'platform_overrides_json';
type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A tool error that names the argument (and the path inside it) the model got wrong. */
const overrideError = (path: (string | number)[], msg: string) =>
  new AppError('bad_request', {
    error: 'VALIDATION_ERROR',
    field: [FIELD, ...path].join('.'),
    message: `${[FIELD, ...path].join('.')}: ${msg}`,
  });

/**
 * platform_overrides_json: a JSON string of per-network overrides, either an object keyed by network
 * ({"<slug>": {…}}) or a list of objects naming their network ([{"platform": "<slug>", …}]).
 * Each override is checked with the post route's own schema for that network.
 */
export function parseOverrides(
  networksSchema: z.ZodObject,
  overrideKeys: readonly string[],
  raw: string | undefined,
): Obj {
  if (raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw overrideError(
      [],
      `not valid JSON (${(err as Error).message.slice(0, 120)}). Send a JSON object keyed by network, e.g. ${exampleOverrides(NETWORKS)}.`,
    );
  }
  let byNetwork: Obj;
  if (Array.isArray(parsed)) {
    byNetwork = {};
    parsed.forEach((item, i) => {
      if (!isObject(item) || typeof item.platform !== 'string')
        throw overrideError([i], 'each entry of the list must be an object with its "platform".');
      const { platform, ...rest } = item;
      byNetwork[(platform as string).toLowerCase()] = rest;
    });
  } else if (isObject(parsed)) {
    byNetwork = parsed;
  } else {
    throw overrideError([], 'must be a JSON object keyed by network (or a list of objects with "platform").');
  }
  const out: Obj = {};
  for (const [key, value] of Object.entries(withoutNulls(byNetwork))) {
    if (!overrideKeys.includes(key))
      throw overrideError([key], `not a network with overrides. Use one of: ${overrideKeys.join(', ')}.`);
    const schema = networksSchema.shape[key] as z.ZodOptional<z.ZodObject>;
    // REST drops unknown keys; a model is told instead, with the fields the network takes.
    const fields = Object.keys(schema.unwrap().shape);
    const unknown = isObject(value) ? Object.keys(value).find((k) => !fields.includes(k)) : undefined;
    if (unknown !== undefined)
      throw overrideError([key, unknown], `${key} has no field '${unknown}'. Its fields: ${fields.join(', ')}.`);
    const r = schema.safeParse(value);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw overrideError([key, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))], issue.message);
    }
    if (r.data !== undefined) out[key] = r.data;
  }
  return out;
}

function inferType(a: {
  image_ids?: string[] | string | undefined;
  video_id?: string | undefined;
  video_url?: string | undefined;
  default_image_id?: string | undefined;
  default_image_url?: string | undefined;
}): PostType {
  if (a.video_id || a.video_url) return 'video';
  if (splitList(a.image_ids).length) return 'carousel';
  if (a.default_image_id || a.default_image_url) return 'image';
  return 'text';
}

/** The networks that post to the account and to listed destinations (LinkedIn pages), for the `scope` argument. */
const scoped = NETWORKS.filter((n) => n.publishScope);
const scopeHelp = `${listText(scoped.map((n) => n.displayName))}: pages = only the pages in ${listText(scoped.map((n) => n.publishScope!.destinations))}; feed = the personal profile too.`;

export const publish = defineTool({
  name: 'publish',
  description:
    'Publish a text, image, carousel or video post to one or more networks now, or save it as drafts (draft=true) or schedule it (scheduled_time). Media by id (upload_media, content_to_image) or URL. Costs 1 post credit per destination published.',
  input: z.object({
    post_type: z
      .enum(['text', 'image', 'carousel', 'video'])
      .optional()
      .describe('Default: from the media given (video, carousel, image, else text).'),
    platforms: stringList.describe(`Networks to post to, e.g. ${exampleSlugs(NETWORKS)}.`),
    default_text: z
      .string()
      .max(20_000)
      .optional()
      .describe('The post text for every network (overrides may change it per network).'),
    default_image_id: z.string().max(500).optional().describe('Image post: a media_id.'),
    default_image_url: z.string().max(4000).optional().describe('Image post: an image URL instead.'),
    image_ids: stringList.optional().describe('Carousel: 2–20 media_ids.'),
    video_id: z.string().max(500).optional().describe('Video post: a media_id.'),
    video_url: z.string().max(4000).optional().describe('Video post: a video URL instead.'),
    first_comment: z
      .string()
      .max(20_000)
      .optional()
      .describe(
        `Posted as a comment under the post once it is published (a reply in its thread on ${listText(
          NETWORKS.filter((n) => n.firstComment?.form === 'reply').map((n) => n.displayName),
        )}); only ${listText(NETWORKS.filter((n) => n.firstComment).map((n) => n.displayName))} take one.`,
      ),
    draft: z.boolean().optional().describe('Save as drafts instead of publishing.'),
    scheduled_time: z
      .string()
      .max(64)
      .optional()
      .describe('ISO 8601 with offset (e.g. 2026-01-31T09:00:00Z): schedule instead of publishing now.'),
    scope: z.enum(['feed', 'pages']).optional().describe(scopeHelp),
    platform_overrides_json: z
      .string()
      .max(200_000)
      .optional()
      .describe(
        `JSON string of per-network overrides, e.g. ${exampleOverrides(NETWORKS)}; each network's fields as on POST /unified/posts.`,
      ),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  effect: { kind: 'write', held: 'post' },
  credits: { type: 'posts', amount: 1, per: 'destination' },
  async run(ctx, args) {
    const { app, caller } = ctx;
    ctx.require('publish_enabled');
    const platforms = platformList(app, splitList(args.platforms));
    if (!platforms.length) throw new AppError('bad_request', 'platforms must have at least one platform');
    ctx.allow(platforms);
    const postType = args.post_type ?? inferType(args);
    const schema = postBodies(app.platforms.networks)[postType];
    const overrides = parseOverrides(schema, app.platforms.overrideKeys, args.platform_overrides_json);
    for (const key of Object.keys(overrides)) {
      if (!platforms.includes(key as never))
        throw overrideError([key], `${key} is not in platforms (${platforms.join(', ')}).`);
    }
    for (const slug of args.scope ? platforms : []) {
      const network = app.platforms.network(slug);
      if (!network.publishScope) continue;
      const { destinations, account } = network.publishScope;
      const own = { ...(overrides[slug] as Obj | undefined) };
      const listed = (own[destinations] as string[] | undefined) ?? [];
      if (args.scope === 'pages' && !listed.length)
        throw overrideError(
          [slug, destinations],
          `scope "pages" needs the ${network.displayName} page ids (see get_accounts).`,
        );
      own[account] = args.scope === 'feed';
      overrides[slug] = own;
    }
    const imageIds = splitList(args.image_ids);
    const raw = withoutNulls({
      platforms,
      default_text: args.default_text,
      default_image_id: args.default_image_id,
      default_image_url: args.default_image_url,
      ...(imageIds.length ? { image_ids: imageIds } : {}),
      video_id: args.video_id,
      video_url: args.video_url,
      draft: args.draft,
      first_comment: args.first_comment,
      scheduled_time: args.scheduled_time,
      ...overrides,
    });
    const body: PostBody = parsePostBody(app.platforms.networks, postType, raw);
    // Through the approval step: a workspace that asks for it holds tool posts as drafts pending a member's approval.
    const result = await app.publishing.approvals.submitFromTool(
      { principal: caller.principal, surface: caller.surface },
      postType,
      body,
    );
    const out = result.body as Obj;
    return {
      ...out,
      success:
        out.success !== false &&
        (!Array.isArray(out.results) || (out.results as { success: boolean }[]).every((r) => r.success)),
      post_type: postType,
    };
  },
});
