// Reads and writes of the publishing ledger. Journal writes are single-statement jsonb merges, so a
// step is durable the moment record() returns.
import type { Db } from '../db/client.ts';
import { and, eq, gte, isNull, lte, or, type SQL, sql } from '../db/orm.ts';
import { posts, postTargets } from '../db/schema-publishing.ts';
import { lazy, rawTable, rowsOf } from '../db/raw.ts';
import { attemptInsert, postOutcomeEvents } from '../events/index.ts';
import type { Journal } from '../platforms/publishing.ts';

export type PostRow = typeof posts.$inferSelect;
export type TargetRow = typeof postTargets.$inferSelect;
export type TargetState = 'pending' | 'processing' | 'published' | 'failed' | 'draft';

/** Who made an attempt (post_attempts.source): the request, the scheduling worker, a retry, the reconciler. */
export type AttemptSource = 'request' | 'worker' | 'retry' | 'reconciler';

const targetTable = rawTable(postTargets);

/**
 * A completed post, unless a request with an Idempotency-Key never recorded its answer (its process died): that one
 * stays running, so a retry of the request still resumes it and records the answer.
 */
const DONE_UNLESS_UNANSWERED = sql`case when p.response is null and p.idempotency_key is not null then 'running' else 'completed' end`;

export interface TargetSpec {
  text: string;
  title?: string;
  description?: string;
  mediaIds: string[];
  thumbnailId?: string;
  visibility?: 'PUBLIC' | 'CONNECTIONS';
  options: Record<string, unknown>;
  /** Posted as a comment under the post once it is published (runner.ts, first-comment.ts). */
  firstComment?: string;
}

/** A target as the ledger's writers insert it. */
export interface NewTarget {
  postId: string;
  workspaceId: string;
  platform: string;
  connectionId: string | null;
  platformUserId: string | null;
  destinationKind: string | null;
  destinationId: string | null;
  state: TargetState;
  attempts?: number;
  spec: TargetSpec;
  creditSpent: boolean;
  errorCode?: string;
  errorMessage?: string;
}

/** A post as `createPost` inserts it. */
export interface NewPost {
  workspaceId: string;
  postType: string;
  request: unknown;
  idempotencyKey: string | null;
  requestHash: string;
  actor: string | null;
  leaseUntil?: Date | null;
  leaseOwner?: string | null;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export class Ledger {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date) {
    this.#db = db;
    this.#now = now;
  }

  async findByKey(workspaceId: string, key: string): Promise<PostRow | undefined> {
    const [row] = await this.#db
      .select()
      .from(posts)
      .where(and(eq(posts.workspaceId, workspaceId), eq(posts.idempotencyKey, key)));
    return row;
  }

  async createPost(tx: Db, p: NewPost): Promise<PostRow> {
    const [row] = await tx
      .insert(posts)
      .values({ ...p, request: p.request as object })
      .returning();
    return row!;
  }

  /**
   * The post, its targets and `also` (the credit spend's CTEs, reading `p`, the written post) in ONE data-modifying
   * statement: atomic without a transaction, one round trip instead of BEGIN, one INSERT each, COMMIT. The ids are
   * the caller's (its reply parts name the targets before they exist). With `guard` (a CTE named `bal`, a limited
   * plan's credit check) nothing is written unless it returns a row: the answer is then no rows.
   */
  async createPostAtOnce(
    db: Db,
    p: NewPost & { id: string; replyParts?: unknown },
    targets: (NewTarget & { id: string })[],
    also: { guard?: SQL | undefined; writes: SQL[] },
  ): Promise<TargetRow[]> {
    const rows = targets.map(
      (t) =>
        sql`(${t.id}::uuid, ${t.workspaceId}::uuid, ${t.platform}::text, ${t.connectionId}::uuid, ${t.platformUserId}::text,
          ${t.destinationKind}::text, ${t.destinationId}::text, ${t.state}::text, ${JSON.stringify(t.spec)}::jsonb,
          ${t.attempts ?? 0}::int, ${t.creditSpent}::boolean, ${t.errorCode ?? null}::text, ${t.errorMessage ?? null}::text)`,
    );
    const res = await db.execute(sql`
      with ${also.guard ? sql`${also.guard},` : sql``}
      p as (
        insert into posts (id, workspace_id, post_type, request, idempotency_key, request_hash, actor, lease_until,
          lease_owner, reply_parts)
        select ${p.id}::uuid, ${p.workspaceId}::uuid, ${p.postType}, ${JSON.stringify(p.request)}::jsonb,
          ${p.idempotencyKey}::text, ${p.requestHash}, ${p.actor}::text, ${iso(p.leaseUntil)}::timestamptz,
          ${p.leaseOwner ?? null}::text, ${p.replyParts === undefined ? null : JSON.stringify(p.replyParts)}::jsonb
        ${also.guard ? sql`where exists (select 1 from bal)` : sql``}
        returning id
      ),
      t as (
        insert into post_targets (id, post_id, workspace_id, platform, connection_id, platform_user_id,
          destination_kind, destination_id, state, spec, attempts, credit_spent, error_code, error_message)
        select v.id, p.id, v.workspace_id, v.platform, v.connection_id, v.platform_user_id, v.destination_kind,
          v.destination_id, v.state, v.spec, v.attempts, v.credit_spent, v.error_code, v.error_message
        from p, (values ${sql.join(rows, sql`, `)}) as v(id, workspace_id, platform, connection_id, platform_user_id,
          destination_kind, destination_id, state, spec, attempts, credit_spent, error_code, error_message)
        returning *
      )${sql.join(
        also.writes.map((w) => sql`, ${w}`),
        sql``,
      )}
      select * from t`);
    const byId = new Map(rowsOf(res).map((r) => [String(r.id), targetTable.row(r)]));
    return targets.flatMap((t) => byId.get(t.id) ?? []);
  }

  /** What a resumed run of a running request needs to answer (see idempotency.ts); inside the creating transaction. */
  async setReplyParts(tx: Db, postId: string, parts: unknown): Promise<void> {
    await tx
      .update(posts)
      .set({ replyParts: parts as object })
      .where(eq(posts.id, postId));
  }

  /** Takes over the claim of a running request whose lease passed; undefined when it is not (or no longer) so. */
  async takeOver(postId: string, owner: string, until: Date): Promise<PostRow | undefined> {
    const now = this.#now();
    const [row] = await this.#db
      .update(posts)
      .set({ leaseUntil: until, leaseOwner: owner, updatedAt: now })
      .where(
        and(
          eq(posts.id, postId),
          eq(posts.status, 'running'),
          or(isNull(posts.leaseUntil), lte(posts.leaseUntil, now)),
        ),
      )
      .returning();
    return row;
  }

  /** Extends a running request's lease while its owner still holds it; false once another run took it over. */
  async renewLease(postId: string, owner: string, until: Date): Promise<boolean> {
    const rows = await this.#db
      .update(posts)
      .set({ leaseUntil: until })
      .where(and(eq(posts.id, postId), eq(posts.leaseOwner, owner), eq(posts.status, 'running')))
      .returning({ id: posts.id });
    return rows.length > 0;
  }

  async addTarget(tx: Db, t: NewTarget): Promise<TargetRow> {
    const [row] = await tx
      .insert(postTargets)
      .values({ ...t, spec: t.spec as unknown as object })
      .returning();
    return row!;
  }

  /**
   * Records the answer to replay for the request's Idempotency-Key (inside the creating transaction when it is already
   * known).
   */
  /**
   * One statement: the answer, and — the first time the post completes — its outcome event (post.published,
   * partially_published or failed), once every live target has ended.
   */
  async finishPost(postId: string, response: unknown, status: number, tx: Db = this.#db): Promise<void> {
    await this.#complete(
      tx,
      postId,
      sql`'completed'`,
      sql`, response = ${JSON.stringify(response)}::jsonb, response_status = ${status}`,
    );
  }

  /**
   * After a retry or the reconciler's resumption: the post is completed again (its stored answer kept), its outcome
   * event written.
   */
  async closeRetry(postId: string): Promise<void> {
    await this.#complete(this.#db, postId, DONE_UNLESS_UNANSWERED, sql``);
  }

  /** Completes the post (with `set`'s extra columns) and writes its outcome event if it was running. */
  async #complete(tx: Db, postId: string, status: SQL, set: SQL): Promise<void> {
    const now = this.#now();
    await tx.execute(sql`
      with prior as (select id, status from posts where id = ${postId}::uuid for update),
      done as (
        update posts p set status = ${status}, updated_at = ${now.toISOString()}::timestamptz${set}
        from prior where p.id = prior.id
        returning p.workspace_id, p.id as post_id, null::uuid as scheduled_post_id, null::text as platform,
          p.post_type, null::text as error_message, prior.status as prior_status
      ),
      first as (select * from done where prior_status = 'running'),
      ev as (${postOutcomeEvents(sql`first`, now)})
      select 1`);
  }

  /**
   * Targets left pending or processing since before `cutoff` by a run that died (a request whose process stopped,
   * a network that never answered), whose post no live request or queue claim holds: the reconciler's to resume.
   */
  async overdue(cutoff: Date, now: Date, limit: number): Promise<TargetRow[]> {
    const res = await this.#db.execute(sql`
      select t.* from post_targets t join posts p on p.id = t.post_id
      where t.state in ('pending', 'processing') and t.updated_at < ${cutoff.toISOString()}::timestamptz
        and (p.lease_until is null or p.lease_until < ${now.toISOString()}::timestamptz)
        and not exists (
          select 1 from scheduled_posts sp where sp.post_id = t.post_id and sp.status in ('publishing', 'scheduled')
        )
      order by t.updated_at limit ${limit}`);
    return rowsOf(res).map(targetTable.row);
  }

  /**
   * The reconciler's claim of one overdue target, in one guarded statement: a new attempt starts (and the post runs
   * again, so its outcome is written once it ends) only if the target is still as `overdue` found it — two
   * reconcilers never resume one target twice.
   */
  async claimOverdue(id: string, cutoff: Date): Promise<TargetRow | undefined> {
    const now = this.#now().toISOString();
    const res = await this.#db.execute(sql`
      with t as (
        update post_targets set state = 'processing', attempts = attempts + 1, updated_at = ${now}::timestamptz
        where id = ${id}::uuid and state in ('pending', 'processing') and updated_at < ${cutoff.toISOString()}::timestamptz
        returning *
      ),
      p as (update posts set status = 'running', updated_at = ${now}::timestamptz where id = (select post_id from t))
      select * from t`);
    const [raw] = rowsOf(res);
    return raw ? targetTable.row(raw) : undefined;
  }

  /** A post of this workspace, or undefined. */
  async ownedPost(workspaceId: string, id: string): Promise<PostRow | undefined> {
    const [row] = await this.#db
      .select()
      .from(posts)
      .where(and(eq(posts.id, id), eq(posts.workspaceId, workspaceId)));
    return row;
  }

  async postOf(id: string): Promise<PostRow> {
    const [row] = await this.#db.select().from(posts).where(eq(posts.id, id));
    if (!row) throw new Error(`post ${id} not found`);
    return row;
  }

  async target(id: string): Promise<TargetRow | undefined> {
    const [row] = await this.#db.select().from(postTargets).where(eq(postTargets.id, id));
    return row;
  }

  async targetsOf(postId: string): Promise<TargetRow[]> {
    return this.#db.select().from(postTargets).where(eq(postTargets.postId, postId)).orderBy(postTargets.createdAt);
  }

  /** Changes a target and returns it as stored. */
  async update(
    id: string,
    patch: Partial<
      Pick<
        TargetRow,
        | 'state'
        | 'processingHandle'
        | 'platformPostId'
        | 'permalink'
        | 'errorCode'
        | 'errorMessage'
        | 'publishedAt'
        | 'creditSpent'
      >
    >,
    tx: Db = this.#db,
  ): Promise<TargetRow> {
    const [row] = await tx
      .update(postTargets)
      .set({ ...patch, updatedAt: this.#now() })
      .where(eq(postTargets.id, id))
      .returning();
    if (!row) throw new Error(`target ${id} not found`);
    return row;
  }

  /**
   * A target's attempt ends (published, failed, or processing at the network): the change and its post_attempts
   * record in one statement. Returns the target as stored. A published target is never moved back: a run that
   * outlived its claim (another worker resumed and published it) changes nothing. `also`: the caller's own writes
   * (data-modifying CTEs, named other than `t` and `a`; given the name of the CTE returning the changed target) in
   * the same statement, so they commit with the change or not at all.
   */
  async settle(
    id: string,
    patch: Parameters<Ledger['update']>[1],
    source: AttemptSource,
    tx: Db = this.#db,
    also?: (target: SQL) => SQL,
  ): Promise<TargetRow> {
    const now = this.#now();
    const res = await tx.execute(sql`
      with t as (
        update post_targets set ${targetTable.set({ ...patch, updatedAt: now })}
        where id = ${id}::uuid${patch.state === 'published' ? sql`` : sql` and state <> 'published'`}
        returning *
      ),
      a as (${attemptInsert(sql`t`, { source, when: now })})${also ? sql`, ${also(sql`t`)}` : sql``}
      select * from t`);
    const [raw] = rowsOf(res);
    if (raw) return targetTable.row(raw);
    const current = await this.target(id);
    if (!current) throw new Error(`target ${id} not found`);
    return current;
  }

  /**
   * A retry's claim, in one statement: the post's failed targets (those with an account, given as `accounts`
   * target id → connection id for those that had none) become processing with a new attempt, and the post running
   * again so its outcome is written once they end. Targets in any other state are left alone, so two retries at once
   * cannot both take one, and a published target is never sent again.
   */
  async claimFailed(tx: Db, postId: string, accounts: Map<string, string>): Promise<TargetRow[]> {
    const now = this.#now().toISOString();
    const given = accounts.size
      ? sql`case id ${sql.join(
          [...accounts].map(([t, c]) => sql`when ${t}::uuid then ${c}::uuid`),
          sql` `,
        )} end`
      : sql`null::uuid`;
    const res = await tx.execute(sql`
      with t as (
        update post_targets set state = 'processing', attempts = attempts + 1, credit_spent = true, connection_id = coalesce(connection_id, ${given}),
          error_code = null, error_message = null, updated_at = ${now}::timestamptz
        where post_id = ${postId}::uuid and state = 'failed' and coalesce(connection_id, ${given}) is not null
        returning *
      ),
      p as (update posts set status = 'running', updated_at = ${now}::timestamptz where id = ${postId}::uuid and exists (select 1 from t))
      select * from t`);
    return rowsOf(res).map(targetTable.row);
  }

  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    return this.#db.transaction((tx) => work(tx as unknown as Db));
  }

  async startAttempt(id: string): Promise<void> {
    await this.#db
      .update(postTargets)
      .set({ state: 'processing', attempts: sql`${postTargets.attempts} + 1`, updatedAt: this.#now() })
      .where(eq(postTargets.id, id));
  }

  /**
   * Published targets whose id is provisional (journal step `step` = pending), published since `since`, oldest first.
   */
  async provisional(step: string, since: Date, limit: number): Promise<TargetRow[]> {
    return this.#db
      .select()
      .from(postTargets)
      .where(
        and(
          eq(postTargets.state, 'published'),
          sql`${postTargets.journal} ->> ${step} = 'pending'`,
          gte(postTargets.publishedAt, since),
        ),
      )
      .orderBy(postTargets.publishedAt)
      .limit(limit);
  }

  /**
   * Records a journal step unless it already starts with `keep` (a run that outlived its claim must not overwrite what
   * the run that took over settled); whether it was written.
   */
  async recordUnless(targetId: string, step: string, value: string, keep: string): Promise<boolean> {
    const rows = await this.#db
      .update(postTargets)
      .set({
        journal: sql`${postTargets.journal} || ${JSON.stringify({ [step]: value })}::jsonb`,
        updatedAt: this.#now(),
      })
      .where(
        and(
          eq(postTargets.id, targetId),
          sql`coalesce(${postTargets.journal} ->> ${step}, '') not like ${`${keep.replace(/[\\%_]/g, '\\$&')}%`}`,
        ),
      )
      .returning({ id: postTargets.id });
    return rows.length > 0;
  }

  /** A journal step's write (one per step of every target): prepared once. */
  #record = lazy(() =>
    this.#db
      .update(postTargets)
      .set({
        journal: sql`${postTargets.journal} || ${sql.placeholder('patch')}::jsonb`,
        updatedAt: sql`${sql.placeholder('at')}::timestamptz`,
      })
      .where(eq(postTargets.id, sql.placeholder('id')))
      .prepare('herald_journal_record'),
  );

  /** The journal of one target, backed by its row. */
  journal(target: TargetRow): Journal {
    const steps: Record<string, string> = { ...(target.journal as Record<string, string>) };
    return {
      steps,
      record: async (step, value) => {
        await this.#record().execute({
          patch: JSON.stringify({ [step]: value }),
          at: this.#now().toISOString(),
          id: target.id,
        });
        steps[step] = value;
      },
    };
  }
}
