// What the simulators share for the read side of a network: comments and replies on published posts (the slice's
// `comments` map), a post's numbers, and `POST /_seed`, which gives a post comments from other (simulated) users and
// metrics, so tests and demos have something to read. Each simulator declares how its network names comments and
// how Herald's post id finds its stored post; its own routes serve the network's real read and reply endpoints.
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { SandboxContext } from './context.ts';
import { sendJson } from './http.ts';
import { current } from './processing.ts';
import type { PlatformSlice } from './store.ts';
import type { JsonObject, ObjectRecord, Platform } from './types.ts';

export interface SimulatedUser {
  id: string;
  name: string;
  avatarUrl: string | null;
}

export interface EngagementHooks {
  /** The stored post Herald's post id names; by default the `posts` record with that id. */
  findPost?(slice: PlatformSlice, postId: string): ObjectRecord | undefined;
  /**
   * A new comment id in the network's format, for a top-level comment (`parent` undefined) or a reply. Absent: the
   * network's API offers no comment access, and `_seed` refuses comments for it.
   */
  commentId?(ctx: SandboxContext, post: ObjectRecord, parent: ObjectRecord | undefined, input: CommentInput): string;
  /** The network's id for simulated user `n` (a person URN, a DID, a channel id …); default `<slug>-user-<n>`. */
  userId?(n: number): string;
  /** Network-specific fields stored on a new comment (a Bluesky record's CID and strong refs …). */
  extra?(
    ctx: SandboxContext,
    post: ObjectRecord,
    parent: ObjectRecord | undefined,
    id: string,
    input: CommentInput,
  ): JsonObject;
}

export function declareEngagement(ctx: SandboxContext, platform: Platform, hooks: EngagementHooks): void {
  ctx.engagement.set(platform, hooks);
}

const NAMES = [
  'Ada Moreau',
  'Bilal Chen',
  'Carmen Ruiz',
  'Dara Okafor',
  'Eli Novak',
  'Fumiko Sato',
  'Gus Hale',
  'Hana Ito',
];

/** The n-th simulated user of a network (n from 0): someone other than the connected account. */
export function simulatedUser(ctx: SandboxContext, platform: Platform, n: number): SimulatedUser {
  const hooks = ctx.engagement.get(platform);
  return {
    id: hooks?.userId?.(n) ?? `${platform}-user-${n + 1}`,
    name: NAMES[n % NAMES.length]!,
    avatarUrl: `${ctx.base(platform)}/_avatars/${n + 1}.png`,
  };
}

export function findPostFor(ctx: SandboxContext, platform: Platform, postId: string): ObjectRecord | undefined {
  const slice = ctx.store.slices[platform];
  const record = ctx.engagement.get(platform)?.findPost?.(slice, postId) ?? slice.posts.get(postId);
  return record ? current(ctx, record) : undefined;
}

export interface CommentInput {
  text: string;
  author: SimulatedUser;
  /** Written by the connected account (a reply made through the API) rather than a simulated user. */
  fromAccount: boolean;
  /**
   * The id the network already gave it (a Bluesky reply's at:// URI, whose record key the client chose); default
   * `commentId`.
   */
  id?: string | undefined;
  /** Fields stored on the record on top of the hooks' `extra` (what the reply call itself carried). */
  fields?: JsonObject | undefined;
  /** When it was written; default now. */
  at?: Date | undefined;
}

/** Stores a comment on `post`, or a reply under `parent`; its record. Throws when the network has no comments. */
export function putComment(
  ctx: SandboxContext,
  platform: Platform,
  post: ObjectRecord,
  parent: ObjectRecord | undefined,
  input: CommentInput,
): ObjectRecord {
  const hooks = ctx.engagement.get(platform);
  if (!hooks?.commentId) throw new Error(`the ${platform} simulator has no comments`);
  const id = input.id ?? hooks.commentId(ctx, post, parent, input);
  const record: ObjectRecord = {
    id,
    accountId: post.accountId,
    createdAt: (input.at ?? ctx.now()).toISOString(),
    postId: post.id,
    parentId: parent ? parent.id : null,
    rootCommentId: parent ? (typeof parent.rootCommentId === 'string' ? parent.rootCommentId : parent.id) : null,
    text: input.text,
    authorId: input.author.id,
    authorName: input.author.name,
    authorAvatarUrl: input.author.avatarUrl,
    fromAccount: input.fromAccount,
    likeCount: 0,
    hidden: false,
    ...(hooks.extra?.(ctx, post, parent, id, input) ?? {}),
    ...(input.fields ?? {}),
  };
  ctx.store.slices[platform].comments.set(id, record);
  return record;
}

/** Top-level comments on a post, newest first. */
export function commentsOn(slice: PlatformSlice, postId: string): ObjectRecord[] {
  return [...slice.comments.values()].filter((c) => c.postId === postId && c.parentId === null).reverse();
}

/** Direct replies under a comment, oldest first (the order a thread reads). */
export function repliesTo(slice: PlatformSlice, commentId: string): ObjectRecord[] {
  return [...slice.comments.values()].filter((c) => c.parentId === commentId);
}

/** Every comment and reply on a post. */
export function allCommentsOn(slice: PlatformSlice, postId: string): ObjectRecord[] {
  return [...slice.comments.values()].filter((c) => c.postId === postId);
}

export interface SimulatedMetrics {
  likes: number;
  comments: number;
  shares: number;
  impressions: number;
}

/** Whether comments are turned off on a post (`_seed` with `comments_disabled`). */
export function commentsDisabled(post: ObjectRecord): boolean {
  return post.commentsDisabled === true;
}

/** A post's numbers: what `_seed` set, with the comment count never below the comments the post really has. */
export function metricsOf(slice: PlatformSlice, post: ObjectRecord): SimulatedMetrics {
  const seeded = (post.metrics ?? {}) as Partial<SimulatedMetrics>;
  const stored = allCommentsOn(slice, post.id).length;
  return {
    likes: seeded.likes ?? 0,
    comments: Math.max(seeded.comments ?? 0, stored),
    shares: seeded.shares ?? 0,
    impressions: seeded.impressions ?? 0,
  };
}

/** A numeric id of `digits` digits, for networks whose ids are numbers. */
export function numericId(digits = 17): string {
  const bytes = randomBytes(digits);
  let out = String(1 + (bytes[0]! % 9));
  for (let i = 1; i < digits; i++) out += String(bytes[i]! % 10);
  return out;
}

const count = z.number().int().min(0).max(1_000_000_000);
const seedBody = z.strictObject({
  // Checked against the store's slugs (the simulators mounted) below.
  platform: z.string().min(1).max(100),
  post_id: z.string().min(1).max(500),
  comments: z
    .array(z.strictObject({ text: z.string().min(1).max(10_000), author_name: z.string().min(1).max(200).optional() }))
    .max(1000)
    .optional(),
  metrics: z
    .strictObject({
      likes: count.optional(),
      comments: count.optional(),
      shares: count.optional(),
      impressions: count.optional(),
    })
    .optional(),
  /** The post's author turned comments off (set in the network's own app; no publishing API sets it). */
  comments_disabled: z.boolean().optional(),
});

/** `POST /_seed`: comments from simulated users and metrics on a post Herald published. Not recorded, no latency. */
export function registerSeed(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/_seed', async (req, reply) => {
    const parsed = seedBody.safeParse(req.body ?? {});
    if (!parsed.success) {
      const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      return sendJson(reply, 400, { error: 'invalid_request', message });
    }
    const { post_id: postId, comments = [], metrics, comments_disabled: commentsDisabled } = parsed.data;
    const platform = parsed.data.platform as Platform;
    if (!ctx.store.slugs.includes(platform))
      return sendJson(reply, 400, { error: 'invalid_request', message: `${platform} is not simulated here` });
    const post = findPostFor(ctx, platform, postId);
    if (!post)
      return sendJson(reply, 404, { error: 'not_found', message: `no ${platform} post "${postId}" in the sandbox` });
    if (comments.length > 0 && !ctx.engagement.get(platform)?.commentId) {
      return sendJson(reply, 400, {
        error: 'invalid_request',
        message: `${platform}'s API offers no comment access, so the simulator keeps no comments`,
      });
    }
    const stored = ctx.store.slices[platform].posts.get(post.id)!;
    if (metrics) stored.metrics = { ...((stored.metrics ?? {}) as JsonObject), ...metrics };
    if (commentsDisabled !== undefined) stored.commentsDisabled = commentsDisabled;
    // Seeded comments came in one second apart, the last one now, so every reader orders them the same way.
    const now = ctx.nowMs();
    const ids = comments.map((c, n) => {
      const user = simulatedUser(ctx, platform, n);
      const at = new Date(now - (comments.length - 1 - n) * 1000);
      return putComment(ctx, platform, post, undefined, {
        text: c.text,
        author: { ...user, name: c.author_name ?? user.name },
        fromAccount: false,
        at,
      }).id;
    });
    return sendJson(reply, 201, { comment_ids: ids });
  });
}
