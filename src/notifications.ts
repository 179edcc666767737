// Mail notifications to people: each member of a workspace chooses which event types reach them (defaults: failures
// and accounts needing attention on, successes off). The notifier sends at most one digest per member and workspace
// every HERALD_NOTIFY_DIGEST_MINUTES, listing the events since the last one, each with a link to the post or the
// connections page of the web app, and a signed unsubscribe link per type that works without signing in.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from './db/client.ts';
import { and, asc, eq, gt, inArray, sql } from './db/orm.ts';
import { events } from './db/schema-events.ts';
import { notificationSettings } from './db/schema-events.ts';
import { users, workspaceMembers, workspaces } from './db/schema.ts';
import { AppError } from './errors.ts';
import { EVENT_TYPES, type EventType } from './events/index.ts';
import type { Mailer } from './mail.ts';

/** What a member gets without having chosen: what needs their attention. */
export const DEFAULT_ON: ReadonlySet<EventType> = new Set<EventType>([
  'post.failed',
  'post.partially_published',
  'post.stuck',
  'account.needs_reconnect',
  'account.token_expiring',
  'webhook.disabled',
  'feed.failed',
]);

export type Preferences = Record<EventType, boolean>;

export interface NotifierDeps {
  db: Db;
  mailer: Mailer;
  clock: () => Date;
  logger: Logger;
  /** The web app's and the API's base URL (links, unsubscribe). */
  publicUrl: string;
  /** Key of the unsubscribe links' signatures. */
  signingKey: Uint8Array;
  digestMinutes: number;
}

const sign = (key: Uint8Array, payload: string) =>
  createHmac('sha256', key).update(`unsubscribe:${payload}`).digest('base64url');

export class Notifier {
  readonly #d: NotifierDeps;
  #timer: NodeJS.Timeout | undefined;

  constructor(deps: NotifierDeps) {
    this.#d = deps;
  }

  /** A member's preferences in a workspace: their choices over the defaults. */
  async preferences(workspaceId: string, userId: string): Promise<Preferences> {
    const [row] = await this.#d.db
      .select({ p: notificationSettings.preferences })
      .from(notificationSettings)
      .where(and(eq(notificationSettings.workspaceId, workspaceId), eq(notificationSettings.userId, userId)));
    return merged((row?.p ?? {}) as Partial<Preferences>);
  }

  /** Changes some of a member's preferences (unknown types are refused); returns them all. */
  async update(workspaceId: string, userId: string, changes: Partial<Record<string, boolean>>): Promise<Preferences> {
    const unknown = Object.keys(changes).filter((k) => !(EVENT_TYPES as readonly string[]).includes(k));
    if (unknown.length) throw new AppError('validation', `Unknown event type(s): ${unknown.join(', ')}`);
    await this.#d.db
      .insert(notificationSettings)
      .values({ workspaceId, userId, preferences: changes, lastSeq: await this.#head(), updatedAt: this.#d.clock() })
      .onConflictDoUpdate({
        target: [notificationSettings.workspaceId, notificationSettings.userId],
        set: {
          preferences: sql`${notificationSettings.preferences} || ${JSON.stringify(changes)}::jsonb`,
          updatedAt: this.#d.clock(),
        },
      });
    return this.preferences(workspaceId, userId);
  }

  /** The signed, single-purpose link that turns one type (or `all`) off for one member of one workspace. */
  unsubscribeUrl(workspaceId: string, userId: string, type: EventType | 'all'): string {
    const payload = Buffer.from(JSON.stringify({ w: workspaceId, u: userId, t: type })).toString('base64url');
    return `${this.#d.publicUrl}/notifications/unsubscribe?token=${payload}.${sign(this.#d.signingKey, payload)}`;
  }

  /** Follows an unsubscribe link: false when its signature is not ours. */
  async unsubscribe(token: string): Promise<{ type: string } | undefined> {
    const [payload = '', mac = ''] = token.split('.');
    const want = Buffer.from(sign(this.#d.signingKey, payload));
    const got = Buffer.from(mac);
    if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
    const { w, u, t } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { w: string; u: string; t: string };
    const types = t === 'all' ? [...EVENT_TYPES] : [t];
    await this.update(w, u, Object.fromEntries(types.map((x) => [x, false])));
    return { type: t };
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(
      () => void this.run().catch((err: unknown) => this.#d.logger.warn({ err }, 'digest failed')),
      60_000,
    );
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #head(): Promise<number> {
    const [r] = await this.#d.db.select({ m: sql<string | null>`max(${events.seq})` }).from(events);
    return Number(r?.m ?? 0);
  }

  /**
   * One round: every member whose last digest is older than the digest interval gets one mail listing the events
   * they chose since then (none: no mail). A member seen for the first time starts from now, not from the history.
   */
  async run(): Promise<number> {
    const db = this.#d.db;
    const now = this.#d.clock();
    const head = await this.#head();
    // Members without settings start at the head of the outbox.
    await db.execute(sql`
      insert into notification_settings (workspace_id, user_id, last_seq, updated_at)
      select workspace_id, user_id, ${head}, ${now.toISOString()}::timestamptz from workspace_members
      on conflict do nothing`);
    const due = new Date(now.getTime() - this.#d.digestMinutes * 60_000);
    const members = await db
      .select({
        workspaceId: notificationSettings.workspaceId,
        userId: notificationSettings.userId,
        preferences: notificationSettings.preferences,
        lastSeq: notificationSettings.lastSeq,
        email: users.email,
        workspace: workspaces.name,
      })
      .from(notificationSettings)
      .innerJoin(users, eq(users.id, notificationSettings.userId))
      .innerJoin(workspaces, eq(workspaces.id, notificationSettings.workspaceId))
      .innerJoin(
        workspaceMembers,
        and(
          eq(workspaceMembers.workspaceId, notificationSettings.workspaceId),
          eq(workspaceMembers.userId, notificationSettings.userId),
        ),
      )
      .where(
        and(
          sql`(${notificationSettings.lastSentAt} is null or ${notificationSettings.lastSentAt} <= ${due.toISOString()}::timestamptz)`,
          sql`exists (select 1 from events e where e.workspace_id = ${notificationSettings.workspaceId} and e.seq > ${notificationSettings.lastSeq})`,
        ),
      );
    let sent = 0;
    for (const m of members) {
      const prefs = merged(m.preferences as Partial<Preferences>);
      const wanted = EVENT_TYPES.filter((t) => prefs[t]);
      const list = wanted.length
        ? await db
            .select()
            .from(events)
            .where(
              and(
                eq(events.workspaceId, m.workspaceId),
                gt(events.seq, m.lastSeq),
                inArray(events.type, wanted),
                sql`${events.seq} <= ${head}`,
              ),
            )
            .orderBy(asc(events.seq))
            .limit(200)
        : [];
      // The cursor moves past everything seen, mailed or not; the digest clock only when a mail left.
      await db
        .update(notificationSettings)
        .set({ lastSeq: head, ...(list.length ? { lastSentAt: now } : {}) })
        .where(and(eq(notificationSettings.workspaceId, m.workspaceId), eq(notificationSettings.userId, m.userId)));
      if (!list.length) continue;
      const lines = list.map((e) => `- ${describe(e.type, e.data as Record<string, unknown>)}\n  ${this.#link(e)}`);
      const types = [...new Set(list.map((e) => e.type as EventType))];
      await this.#d.mailer.send({
        workspaceId: m.workspaceId,
        to: m.email,
        kind: 'notification_digest',
        subject: `Herald: ${list.length} update${list.length === 1 ? '' : 's'} in ${m.workspace}`,
        body: [
          `What happened in ${m.workspace}:`,
          '',
          ...lines,
          '',
          ...types.map((t) => `Stop mails about ${t}: ${this.unsubscribeUrl(m.workspaceId, m.userId, t)}`),
          `Stop all these mails: ${this.unsubscribeUrl(m.workspaceId, m.userId, 'all')}`,
        ].join('\n'),
      });
      sent++;
    }
    return sent;
  }

  #link(e: typeof events.$inferSelect): string {
    const base = this.#d.publicUrl;
    if (e.type.startsWith('account.')) return `${base}/connections?platform=${e.platform ?? ''}`;
    if (e.type.startsWith('feed.')) return `${base}/feeds`;
    const d = e.data as { scheduled_post_id?: string | null };
    const id = e.postId ?? d.scheduled_post_id;
    return id ? `${base}/posts?post=${id}` : `${base}/posts`;
  }
}

function merged(chosen: Partial<Preferences>): Preferences {
  return Object.fromEntries(EVENT_TYPES.map((t) => [t, chosen[t] ?? DEFAULT_ON.has(t)])) as Preferences;
}

/** One line of a digest. */
function describe(type: string, d: Record<string, unknown>): string {
  const net = (d.platform as string | undefined) ?? '';
  const targets = (d.targets as { platform: string; state: string; error_message: string | null }[] | undefined) ?? [];
  const errors = targets
    .filter((t) => t.state === 'failed')
    .map((t) => `${t.platform}: ${t.error_message ?? 'failed'}`)
    .join('; ');
  switch (type) {
    case 'post.failed':
      return `A post failed. ${errors || (d.error_message as string | null) || ''}`.trim();
    case 'post.partially_published':
      return `A post was published only in part. ${errors}`.trim();
    case 'post.published':
      return `A post was published (${targets.map((t) => t.platform).join(', ')}).`;
    case 'post.stuck':
      return `A ${net} post was stuck (${d.reason as string}); Herald ${d.action as string} it.`;
    case 'account.needs_reconnect':
      return `Your ${net} account needs reconnecting: ${(d.reason as string | null) ?? ''}`.trim();
    case 'account.token_expiring':
      return `Your ${net} connection expires soon: ${(d.reason as string | null) ?? ''}`.trim();
    case 'feed.failed':
      return `The feed ${d.url as string} could not be polled: ${d.error as string}`;
    default:
      return `${type}${net ? ` (${net})` : ''}`;
  }
}
