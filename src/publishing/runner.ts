// Runs one target against its network: tokens, journal, timeout, polling of asynchronous processing,
// and the mapping of failures to result codes. Used by the request path and, later, the worker.
import type { Logger } from 'pino';
import type { SQL } from '../db/orm.ts';
import type { CreditService } from '../auth/credits.ts';
import type { Platform } from '../platforms/slugs.ts';
import { ACCOUNT_NOTE_PREFIX, type ConnectionRow, type ConnectionStore } from '../connections/store.ts';
import type { TokenKeeper } from '../connections/tokens.ts';
import type { MediaRow } from '../media/records.ts';
import type { MediaService } from '../media/service.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import type { PublishMedia, PublishOutcome, PublishRequest, PostType } from '../platforms/publishing.ts';
import { PlatformError, type PlatformErrorKind } from '../platforms/types.ts';
import { sanitizeErrorText } from '../events/index.ts';
import { firstCommentOfTarget, postFirstComment } from './first-comment.ts';
import type { AttemptSource, Ledger, TargetRow, TargetSpec } from './ledger.ts';
import { failure, storedFailure, type TargetOutcome } from './results.ts';

/** What the caller already holds for a target it just wrote, so the run does not read it back. */
export interface KnownTarget {
  postType: PostType;
  /** The connection chosen for the target (undefined: read it by the row's connection_id). */
  connection?: ConnectionRow | undefined;
  /** Media rows by id, covering the target's media and thumbnail. */
  media?: Map<string, MediaRow>;
}

const CODES: Record<PlatformErrorKind, string> = {
  auth_expired: 'OAUTH_ERROR',
  reauth_required: 'OAUTH_ERROR',
  rate_limited: 'RATE_LIMITED',
  invalid_content: 'CONTENT_REJECTED',
  transient: 'PLATFORM_UNAVAILABLE',
  unsupported: 'NOT_SUPPORTED',
  not_found: 'NOT_FOUND',
  permission: 'PERMISSION_DENIED',
};

export interface RunnerDeps {
  registry: PlatformRegistry;
  connections: ConnectionStore;
  tokens: TokenKeeper;
  credits: CreditService;
  media: MediaService;
  ledger: Ledger;
  clock: () => Date;
  logger: Logger;
  targetTimeoutMs: number;
  pollIntervalMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** Journal step of a post published under a provisional id: `pending` until its final id is stored, then `done`. */
export const FOLLOW_UP_STEP = 'herald.follow_up';

export class TargetRunner {
  readonly #d: RunnerDeps;

  constructor(deps: RunnerDeps) {
    this.#d = deps;
  }

  static resultOf(row: TargetRow, registry: PlatformRegistry): TargetOutcome {
    const name = registry.get(row.platform as Platform).displayName;
    const extra =
      registry.network(row.platform).resultPost?.fromJournal((row.journal ?? {}) as Record<string, string>) ?? {};
    const comment = firstCommentOfTarget(row);
    const post = {
      platform: row.platform,
      post_id: row.platformPostId,
      permalink: row.permalink,
      ...extra,
      ...(comment ? { first_comment: comment } : {}),
    };
    if (row.state === 'published')
      return { platform: row.platform, success: true, message: `Published to ${name}.`, post, retryable: false };
    if (row.state === 'processing') {
      return {
        platform: row.platform,
        success: true,
        message: `Accepted by ${name}; still processing. Its status will update when ${name} finishes.`,
        post,
        retryable: false,
      };
    }
    return storedFailure(
      row.platform,
      row.errorCode ?? 'PUBLISH_FAILED',
      row.errorMessage ?? `Publishing to ${name} failed.`,
    );
  }

  /**
   * Publishes one pending (or interrupted) target and returns its result; never throws for network failures.
   * `withPublished`: the caller's writes that belong with the target's published state (the scheduling worker's
   * entry status), as data-modifying CTEs written in the same statement: one commit for both, and no crash between.
   * `target` names the CTE returning the target as changed (the statement's snapshot still shows the stored row).
   */
  async run(
    target: TargetRow | string,
    opts: {
      attemptRecorded?: boolean;
      known?: KnownTarget;
      source?: AttemptSource;
      withPublished?: WithPublished;
    } = {},
  ): Promise<TargetOutcome> {
    const row = typeof target === 'string' ? await this.#d.ledger.target(target) : target;
    if (!row) throw new Error(`target ${String(target)} not found`);
    const platform = row.platform as Platform;
    const adapter = this.#d.registry.get(platform);
    const known = opts.known;
    const source = opts.source ?? 'request';
    // One line per target published, failed or left processing: an operator follows publishing in the logs alone.
    const said = (done: TargetRow) => {
      const line = { network: platform, post: done.postId, target: done.id, attempt: done.attempts, source };
      if (done.state === 'failed')
        this.#d.logger.warn({ ...line, code: done.errorCode, error: done.errorMessage }, 'target failed');
      else this.#d.logger.info({ ...line, state: done.state }, `target ${done.state}`);
    };
    const fail = async (
      code: string,
      message: string,
      retry: { retryable: boolean; retryAfterSeconds?: number | undefined },
    ): Promise<TargetOutcome> => {
      // The failure and its refund commit together: a crash between them can neither lose nor double the credit.
      const text = sanitizeErrorText(message);
      await this.#d.ledger.transaction(async (tx) => {
        said(
          await this.#d.ledger.settle(
            row.id,
            { state: 'failed', errorCode: code, errorMessage: text, creditSpent: false },
            source,
            tx,
          ),
        );
        if (row.creditSpent)
          await this.#d.credits.refund(
            { workspaceId: row.workspaceId, type: 'posts', amount: 1, reason: 'publish_failed', reference: row.id },
            tx,
          );
      });
      return failure(platform, code, text, retry);
    };
    const publisher = adapter.publisher;
    if (!publisher)
      return fail('NOT_SUPPORTED', `Publishing to ${adapter.displayName} is not available on this server yet.`, {
        retryable: false,
      });
    const conn = known?.connection ?? (row.connectionId ? await this.#d.connections.byId(row.connectionId) : undefined);
    if (!conn)
      return fail('NOT_CONNECTED', `${adapter.displayName} not connected for this workspace.`, { retryable: false });
    const req = await this.#request(row, known);
    const journal = this.#d.ledger.journal(row);
    if (!opts.attemptRecorded) await this.#d.ledger.startAttempt(row.id);
    const deadline = this.#d.clock().getTime() + this.#d.targetTimeoutMs;
    try {
      let outcome: PublishOutcome = await this.#bounded(
        deadline,
        this.#d.tokens.use(conn, (t) => publisher.publish(t, req, journal)),
      );
      const check = publisher.checkStatus?.bind(publisher);
      while (outcome.state === 'processing' && check && this.#d.clock().getTime() < deadline) {
        // 2 s keeps polling inside the strictest status quota (TikTok: 30 status calls a minute per token).
        await this.#sleep(this.#d.pollIntervalMs ?? 2000);
        const handle = outcome.handle;
        outcome = await this.#bounded(
          deadline,
          this.#d.tokens.use(conn, (t) => check(t, handle, req, journal)),
        );
      }
      // The first comment goes out before the target is recorded as published: a run that stops in between is resumed
      // (the post found again through its journal) and finishes the comment, once.
      const firstComment = (row.spec as TargetSpec).firstComment;
      if (outcome.state === 'published' && firstComment)
        await postFirstComment(
          {
            tokens: this.#d.tokens,
            logger: this.#d.logger,
            settle: (step, value, keep) => this.#d.ledger.recordUnless(row.id, step, value, keep),
            bounded: (work) => this.#bounded(this.#d.clock().getTime() + this.#d.targetTimeoutMs, work),
            isTimeout: (err) => err instanceof TimeoutError,
          },
          {
            adapter,
            conn,
            journal,
            destination: req.destination,
            postId: outcome.postId,
            text: firstComment,
            target: row.id,
          },
        );
      const done =
        outcome.state === 'processing'
          ? await this.#d.ledger.settle(row.id, { state: 'processing', processingHandle: outcome.handle }, source)
          : await this.#settlePublished(row.id, outcome, source, opts.withPublished);
      said(done);
      if (outcome.state === 'published' && outcome.provisional) await journal.record(FOLLOW_UP_STEP, 'pending');
      // The account publishes again: whatever stopped it at the network is over.
      if (outcome.state === 'published' && conn.statusReason?.startsWith(ACCOUNT_NOTE_PREFIX))
        await this.#d.connections.clearAccountCondition(conn.id);
      const result = TargetRunner.resultOf(done, this.#d.registry);
      // What the network changed against the request (e.g. made the post private) belongs in the answer.
      return outcome.state === 'published' && outcome.notice
        ? { ...result, message: `${result.message} ${outcome.notice}` }
        : result;
    } catch (err) {
      if (err instanceof PlatformError) {
        this.#d.logger.warn({ platform, target: row.id, kind: err.kind, status: err.status }, 'publish failed');
        // The account itself cannot publish until its owner acts at the network: the connection status says so.
        if (err.accountCondition) await this.#d.connections.noteAccountCondition(conn.id, err.message);
        return fail(CODES[err.kind], `${adapter.displayName}: ${err.message}`, {
          retryable: err.retryable,
          retryAfterSeconds: err.retryAfterSeconds,
        });
      }
      if (err instanceof TimeoutError) {
        // The network may still finish what it accepted: keep the journal and report it as processing.
        said(await this.#d.ledger.settle(row.id, { state: 'processing' }, source));
        return failure(
          platform,
          'TIMEOUT',
          `${adapter.displayName} did not finish within ${Math.round(this.#d.targetTimeoutMs / 1000)} s; Herald keeps the post and will reconcile it.`,
          { retryable: true },
        );
      }
      this.#d.logger.error({ err, platform, target: row.id }, 'publish crashed');
      return fail('PUBLISH_FAILED', `Publishing to ${adapter.displayName} failed unexpectedly.`, { retryable: true });
    }
  }

  #settlePublished(
    id: string,
    outcome: { postId: string; permalink: string | null },
    source: AttemptSource,
    also: WithPublished | undefined,
  ): Promise<TargetRow> {
    const at = this.#d.clock();
    const patch = {
      state: 'published' as const,
      platformPostId: outcome.postId,
      permalink: outcome.permalink,
      publishedAt: at,
      errorCode: null,
      errorMessage: null,
    };
    const post = { postId: outcome.postId, permalink: outcome.permalink, at };
    return this.#d.ledger.settle(id, patch, source, undefined, also && ((target) => also(post, target)));
  }

  /**
   * A post published under a provisional id (PublishOutcome.provisional): asks the network again through
   * `reconcile`, and when it now gives another id, stores that id and its permalink. `pending` while the network has
   * nothing new; `done` once updated (or when there is nothing left to ask).
   */
  async followUp(row: TargetRow): Promise<'done' | 'pending'> {
    const publisher = this.#d.registry.get(row.platform).publisher;
    const conn = row.connectionId ? await this.#d.connections.byId(row.connectionId) : undefined;
    const journal = this.#d.ledger.journal(row);
    if (!publisher?.reconcile || !conn) {
      await journal.record(FOLLOW_UP_STEP, 'done');
      return 'done';
    }
    const req = await this.#request(row, undefined);
    const found = await this.#d.tokens.use(conn, (t) => publisher.reconcile!(t, req, journal));
    if (!found || found.postId === row.platformPostId) return 'pending';
    await this.#d.ledger.update(row.id, { platformPostId: found.postId, permalink: found.permalink });
    await journal.record(FOLLOW_UP_STEP, 'done');
    this.#d.logger.info(
      { platform: row.platform, target: row.id },
      'a provisional post id was replaced by the final one',
    );
    return 'done';
  }

  async #request(row: TargetRow, known: KnownTarget | undefined): Promise<PublishRequest> {
    const spec = row.spec as TargetSpec;
    const ids = [...spec.mediaIds, ...(spec.thumbnailId ? [spec.thumbnailId] : [])];
    const given = known?.media;
    const byId =
      given && ids.every((id) => given.has(id))
        ? given
        : new Map(
            (ids.length ? await this.#d.media.resolveMediaForWorkspace(row.workspaceId, ids) : []).map((r) => [
              r.id,
              r,
            ]),
          );
    const postType = known?.postType ?? ((await this.#d.ledger.postOf(row.postId)).postType as PostType);
    return {
      postType,
      text: spec.text,
      title: spec.title,
      description: spec.description,
      media: spec.mediaIds.map((id) => this.#publishMedia(byId.get(id)!)),
      thumbnail: spec.thumbnailId ? this.#publishMedia(byId.get(spec.thumbnailId)!) : undefined,
      destination:
        row.destinationKind && row.destinationId
          ? { kind: row.destinationKind as 'page', id: row.destinationId }
          : undefined,
      visibility: spec.visibility,
      options: spec.options,
      targetId: row.id,
    };
  }

  #publishMedia(m: MediaRow): PublishMedia {
    const storage = this.#d.media.storage;
    return {
      id: m.id,
      kind: m.mediaType as 'image' | 'video',
      url: storage.publicUrl(m.storageKey),
      mime: m.mime,
      format: m.format,
      size: m.fileSize,
      width: m.width,
      height: m.height,
      durationSec: m.durationMs === null ? null : m.durationMs / 1000,
      open: async (range) => (await storage.get(m.storageKey, range)).body,
    };
  }

  #sleep(ms: number): Promise<void> {
    return (this.#d.sleep ?? ((x) => new Promise((r) => setTimeout(r, x))))(ms);
  }

  async #bounded<T>(deadline: number, work: Promise<T>): Promise<T> {
    const left = deadline - this.#d.clock().getTime();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutError()), Math.max(left, 0));
    });
    try {
      return await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

class TimeoutError extends Error {}

/**
 * Writes of the caller that belong with a target's published state (TargetRunner.run's `withPublished`): data-modifying
 * CTEs for the same statement, given the post as published and the name of the CTE returning the changed target.
 */
export type WithPublished = (post: { postId: string; permalink: string | null; at: Date }, target: SQL) => SQL;
