// What publishing answers, typed once: a target's outcome (code, retryable, retry_after_seconds) for
// the worker, its wire form for the routes, and the reply of a submit. The routes use these schemas as
// their 200 responses, so /openapi.json documents the real shapes.
import { z } from 'zod';
import { NETWORKS } from '../platforms/registry.ts';
import { firstCommentSchema } from './first-comment.ts';

/** What the built-in networks add to a result's `post` (their contracts' `resultPost`), each optional. */
const networkPostFields: z.ZodRawShape = Object.fromEntries(
  NETWORKS.flatMap((n) => Object.entries(n.resultPost?.shape ?? {}).map(([k, v]) => [k, z.optional(v)])),
);

export const postRefSchema = z.object({
  platform: z.string(),
  post_id: z.string().nullable(),
  permalink: z.string().nullable(),
  ...networkPostFields,
  /** The post's first comment (`first_comment` of the request), where one was asked for. */
  first_comment: firstCommentSchema.optional(),
});

/** One network's result on the wire (interface.md: `{ platform, success, message, post?, error? }`). */
export const targetResultSchema = z.object({
  platform: z.string(),
  success: z.boolean(),
  message: z.string(),
  post: postRefSchema.optional(),
  /** The failure's code (NOT_CONNECTED, RATE_LIMITED, …). */
  error: z.string().optional(),
  /** When the network said how long to wait (rate limits). */
  retry_after_seconds: z.number().optional(),
});
export type TargetResult = z.infer<typeof targetResultSchema>;

/** A target's outcome inside Herald: the wire result plus whether trying again later can succeed. */
export const targetOutcomeSchema = targetResultSchema.extend({ retryable: z.boolean() });
export type TargetOutcome = z.infer<typeof targetOutcomeSchema>;

/**
 * A failed target. `retryable` comes from what failed: a network's error says it itself
 * (`PlatformError.retryable`: throttled, unavailable, token expired); Herald's own refusals are final.
 */
export function failure(
  platform: string,
  code: string,
  message: string,
  opts: { retryable: boolean; retryAfterSeconds?: number | undefined },
): TargetOutcome {
  const { retryable, retryAfterSeconds } = opts;
  return {
    platform,
    success: false,
    message,
    error: code,
    retryable,
    ...(retryAfterSeconds !== undefined ? { retry_after_seconds: retryAfterSeconds } : {}),
  };
}

// A failure read back from the ledger has only its code left; these codes were retryable when written.
const RETRYABLE_CODES = new Set(['RATE_LIMITED', 'PLATFORM_UNAVAILABLE', 'TIMEOUT', 'PUBLISH_FAILED']);

/** A stored failure, as far as its code tells. */
export const storedFailure = (platform: string, code: string, message: string): TargetOutcome =>
  failure(platform, code, message, { retryable: RETRYABLE_CODES.has(code) });

export const toWire = ({ retryable: _r, ...wire }: TargetOutcome): TargetResult => wire;

/**
 * An entry of a reply's `results[]`: the target's result plus `post_id` and `permalink` at the top level
 * (null when nothing was posted) — clients written from the public documentation read them there — and
 * `error` null on success, as the documented `{platform, success, message, post, error}`.
 */
export const resultEntrySchema = targetResultSchema.extend({
  // Optional only for answers recorded before it was added (an Idempotency-Key replays the stored answer).
  error: z.string().nullable().optional(),
  // Optional only for answers recorded before they were added (an Idempotency-Key replays the stored answer).
  post_id: z.string().nullable().optional(),
  permalink: z.string().nullable().optional(),
});
export type ResultEntry = z.infer<typeof resultEntrySchema>;

const entryOf = (r: TargetResult): ResultEntry => ({
  ...r,
  error: r.error ?? null,
  post_id: r.post?.post_id ?? null,
  permalink: r.post?.permalink ?? null,
});

export const draftRefSchema = z.object({ platform: z.string(), draft_id: z.string(), status: z.literal('draft') });
export type DraftRef = z.infer<typeof draftRefSchema>;
export const scheduledRefSchema = z.object({
  platform: z.string(),
  scheduled_post_id: z.string(),
  scheduled_time: z.string(),
});
export type ScheduledRef = z.infer<typeof scheduledRefSchema>;

/**
 * Every reply of the post routes (interface.md, Responses): one network's fields at the top level,
 * several networks' `results`, `drafts`, `scheduled`, or a mix; the idempotent replay of any of them.
 */
export const publishResultSchema = z.object({
  success: z.boolean().optional(),
  message: z.string().optional(),
  post: postRefSchema.optional(),
  /** The single-network reply's failure code; null on success (the documented `{success, message, post, error}`). */
  error: z.string().nullable().optional(),
  retry_after_seconds: z.number().optional(),
  results: z.array(resultEntrySchema).optional(),
  drafts: z.array(draftRefSchema).optional(),
  scheduled: z.array(scheduledRefSchema).optional(),
});
export type PublishResult = z.infer<typeof publishResultSchema>;

export interface PublishReply<B extends object = PublishResult> {
  status: number;
  body: B;
}

/**
 * The single-network reply for one network's destinations (personal profile first, as planned): `post` of
 * the first destination that has one; success only when every destination succeeded, else the first
 * failure's message and code.
 */
function singleNetwork(results: TargetResult[]): PublishResult {
  const failed = results.find((r) => !r.success);
  const first = failed ?? results[0]!;
  const post = results[0]!.post ?? results.find((r) => r.post)?.post;
  return {
    success: !failed,
    message: first.message,
    ...(post ? { post } : {}),
    error: first.error ?? null,
  };
}

/** The answer to a submit, from what it did: ran now, saved as drafts, scheduled. */
export function publishReply(
  requested: number,
  ran: TargetOutcome[],
  drafts: DraftRef[],
  scheduled: ScheduledRef[],
): PublishReply {
  const wire = ran.map(toWire);
  const results = wire.map(entryOf);
  if (scheduled.length) {
    if (!results.length && !drafts.length)
      return { status: 200, body: { success: true, message: 'Scheduled', scheduled } };
    return {
      status: 200,
      body: {
        success: results.every((r) => r.success),
        message: results.length ? 'Scheduled; other posts completed' : 'Scheduled; drafts saved',
        scheduled,
        ...(drafts.length ? { drafts } : {}),
        ...(results.length ? { results } : {}),
      },
    };
  }
  if (drafts.length && !results.length)
    return { status: 200, body: { success: true, message: 'Saved as drafts', drafts } };
  if (drafts.length)
    return {
      status: 200,
      body: { success: results.every((r) => r.success), message: 'Drafts and posts completed', drafts, results },
    };
  if (requested === 1 && results.length === 1) {
    // The single-network reply: these four fields, `error` null on success.
    const { success, message, post, error } = wire[0]!;
    return { status: 200, body: { success, message, ...(post ? { post } : {}), error: error ?? null } };
  }
  // One network with several destinations (LinkedIn pages, Facebook Pages): the single-network reply, and every
  // destination in results.
  if (requested === 1 && results.length > 1) return { status: 200, body: { ...singleNetwork(wire), results } };
  return { status: 200, body: { results } };
}
