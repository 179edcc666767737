// What the engagement routes share: the query and response schemas of posts, comments and figures, and the
// request helpers built from the platform registry (which networks a read covers, their destination filters).
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { destinationFilter, destinationFilterShape, replyDestinationShape } from '../../../engagement/arguments.ts';
import type { CommentRecord } from '../../../engagement/index.ts';
import { parsePlatforms, readPlatforms, splitPlatforms } from '../../../platforms/arguments.ts';
import type { Platform } from '../../../platforms/slugs.ts';
import { principalOf } from '../access.ts';

export const repeatable = z.union([z.string().max(2000), z.array(z.string().max(500)).max(100)]).optional();
export const flag = z.enum(['true', 'false', '1', '0']).optional();
export const on = (v: string | undefined, fallback: boolean) =>
  v === undefined ? fallback : v === 'true' || v === '1';
export const intIn = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const errorFields = { message: z.string().optional(), error: z.string().optional() };

export const postRecord = z.object({
  post_id: z.string(),
  commentary: z.string().nullable(),
  published_at: z.string().nullable(),
  type: z.string(),
  images: z.array(z.unknown()),
  videos: z.unknown(),
  permalink: z.string().nullable(),
  like_count: z.number().int().optional(),
  comment_count: z.number().int().optional(),
  share_count: z.number().int().optional(),
  impression_count: z.number().int().optional(),
  reach: z.number().int().nullable().optional(),
  source_page_id: z.string().nullable(),
  ai_watcher_enabled: z.boolean(),
  herald_post_id: z.string().nullable().describe('The Herald post (ledger) that published it, when Herald did.'),
  last_refreshed_at: z.string(),
});
export const postsSlice = z.object({
  posts: z.array(postRecord),
  source: z.enum(['database', 'api']).nullable(),
  last_updated: z.string().nullable(),
  ...errorFields,
});

export const comment: z.ZodType<CommentRecord> = z
  .lazy(
    () =>
      z.object({
        id: z.string(),
        type: z.enum(['comment', 'reply']),
        text: z.string(),
        author_name: z.string(),
        commentor_name: z.string(),
        author_id: z.string().nullable(),
        author_profile_image_url: z.string().nullable(),
        created_at: z.string().nullable(),
        like_count: z.number().int(),
        reply_count: z.number().int(),
        parent_id: z.string().nullable(),
        replies: z.array(comment),
        platform_meta: z.object({ is_hidden: z.boolean() }),
        own: z
          .boolean()
          .describe(
            'Written by the connected account itself (its page or organization included): the first comment Herald posted, a reply sent from Herald, or one written on the network. The inbox never counts it unread.',
          ),
      }),
    // A recursive schema must be a component (with an id) for the document to refer to itself.
  )
  .meta({ id: 'Comment', description: 'A comment or reply, with its replies.' });
export const postComments = z.looseObject({
  post_id: z.string(),
  page_id: z.string().nullable(),
  comments_disabled: z.boolean(),
  comment_status: z.enum(['ok', 'error', 'disabled']),
  comment_status_message: z.string().nullable(),
  comments: z.array(comment),
});
export const commentsSlice = z.object({
  posts: z.array(postComments),
  last_updated: z.string().nullable(),
  ...errorFields,
});
export const figures = z.object({
  post_count: z.number().int(),
  total_likes: z.number().int(),
  total_comments: z.number().int(),
  total_reach: z.number().int(),
  average_engagement_rate: z.number(),
});

/**
 * The large read answers (an inbox is easily a megabyte) are serialized with JSON.stringify alone: they are built
 * field by field from typed rows (never by spreading a row, so nothing unlisted can leak), TypeScript holds them to
 * the response schema, and the schema still documents them. The generic serializer re-encodes every value through
 * zod first, which cost more than the database reads (≈ 34 ms of ≈ 47 ms for 500 comments).
 */
export const plainJson = () => (data: unknown) => JSON.stringify(data);

export type EngagementKit = ReturnType<typeof engagementKit>;

/** The request helpers every engagement route file uses, built once from the context. */
export function engagementKit(ctx: AppContext) {
  const networks = ctx.platforms;
  // Each network's destination filter (facebook_page_ids, linkedin_organization_ids, board_id, youtube_channel_id).
  const filterShape = destinationFilterShape(networks.networks, repeatable.unwrap());
  const replyShape = replyDestinationShape(networks.networks);
  const filterOf = (q: Record<string, unknown>) => destinationFilter(networks, q);
  const knownIn = (values: string[]) => values.filter((v) => networks.has(v));

  /** The networks a read covers: those asked for (400 for an unknown one), else every one in the key's scope. */
  const platformsOf = (
    req: FastifyRequest,
    value: string | string[] | undefined,
    supported?: (p: Platform) => boolean,
  ): Platform[] => readPlatforms(networks, principalOf(req).scope, value, supported);
  const platformsAccess =
    (field = 'platforms') =>
    (req: FastifyRequest) =>
      knownIn(splitPlatforms((req.query as Record<string, string | string[] | undefined>)[field]));
  /** `platforms` and its one-network spelling `platform`, which add up: both are checked against the key's scope. */
  const listAccess = (req: FastifyRequest) => [...platformsAccess()(req), ...platformsAccess('platform')(req)];
  const listed = (q: { platforms?: string | string[] | undefined; platform?: string | string[] | undefined }) => [
    ...splitPlatforms(q.platforms),
    ...splitPlatforms(q.platform),
  ];
  const platformAlias = repeatable.describe(
    'The same as platforms (one network, as the single-post routes name it); the two add up.',
  );
  const onePlatform = (req: FastifyRequest): string[] => {
    const q = req.query as { platform?: string };
    const b = (req.body ?? {}) as { platform?: unknown };
    const v = q.platform ?? (typeof b.platform === 'string' ? b.platform : undefined);
    return v && networks.has(v.toLowerCase()) ? [v.toLowerCase()] : [];
  };
  /** Networks with a read side; those without comment access answer a slice that says so. */
  const inboxNetwork = (p: Platform) => networks.get(p).engagement !== undefined;
  const platformParam = (v: string): Platform => parsePlatforms(networks, splitPlatforms(v))[0]!;
  const inboxAccess = (platforms: (req: FastifyRequest) => Iterable<string>) => ({
    access: { kind: 'workspace' as const, feature: 'inbox_enabled' as const, platforms },
  });
  return {
    ctx,
    networks,
    filterShape,
    replyShape,
    filterOf,
    platformsOf,
    platformsAccess,
    listAccess,
    listed,
    platformAlias,
    onePlatform,
    inboxNetwork,
    platformParam,
    inboxAccess,
  };
}
