// Drafts: one per network, holding the unified body narrowed to that network.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { and, desc, eq, inArray, sql } from '../db/orm.ts';
import { drafts } from '../db/schema-publishing.ts';
import { apiKeys, users } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { rowsOf } from '../db/raw.ts';
import { approvalEvent, eventRow, recordEvents } from '../events/index.ts';
import type { Principal } from '../auth/authenticate.ts';
import type { PostType } from '../platforms/publishing.ts';
import { withImportedMedia } from './media-refs.ts';
import type { DraftRef } from './results.ts';
import type { NetworkContract } from '../platforms/contract.ts';
import type { Networks } from '../platforms/registry.ts';
import type { PostBody } from './schemas.ts';
import type { PostValidator } from './validate.ts';
import { actionToWire, actionWireSchema, type StoredAction } from './held-actions.ts';

export type DraftRow = typeof drafts.$inferSelect;

/** A tool's post saved pending a member's approval (publishing/approval.ts). */
export interface HeldDraft {
  status: 'pending_approval';
  requestedVia: string;
  requestedByUser: string | null;
  requestedByKey: string | null;
}

/** The body for one network: its own override only (`overrideKeys`: the registry's), no draft flags. */
export function narrowBody(body: PostBody, platform: string, overrideKeys: readonly string[]): PostBody {
  const { draft: _d, draft_platforms: _dp, ...rest } = body;
  const out: Record<string, unknown> = { ...rest, platforms: [platform] };
  for (const k of overrideKeys) if (k !== platform) delete out[k];
  return out as PostBody;
}

/** Who asked for an approval: a member (their name and email) or an API key (its name). */
export const requesterSchema = z.object({
  kind: z.enum(['member', 'key']),
  id: z.string(),
  name: z.string().nullable().describe("The member's full name or the key's name"),
  email: z.string().nullable().describe("A member's email; null for a key"),
});
export type Requester = z.infer<typeof requesterSchema>;

/**
 * A draft on the wire. The common fields are declared; each network adds its override object under its
 * slug and its own summary fields (its contract's `draftFields`), so the object stays open for those.
 */
export const draftSchema = z.looseObject({
  id: z.string(),
  platform: z.string(),
  platform_user_id: z.string().nullable(),
  post_type: z.string(),
  status: z
    .string()
    .describe(
      'draft, or pending_approval: a post or action made by a tool, waiting for a member to approve it (POST /unified/drafts/{id}/approve); an action once approved: approved (it ran) or failed (it ran and failed)',
    ),
  requested_via: z
    .string()
    .nullable()
    .describe(
      'For a post or action pending approval: the tool surface that made it (mcp, gpt, agent), feed for a followed feed, or rest for a post sent for approval (POST /unified/drafts with pending_approval)',
    ),
  requested_by: requesterSchema
    .nullable()
    .describe('For a post or action pending approval: who asked, a member or an API key (null when not known)'),
  kind: z
    .enum(['post', 'action'])
    .describe(
      "post: a post (a draft, or a tool's post pending approval); action: another tool call held for approval (a reply, a disconnect), see `action`",
    ),
  action: actionWireSchema.nullable(),
  default_text: z.string().nullable(),
  default_image_id: z.string().nullable(),
  default_image_url: z.string().nullable(),
  image_ids: z.array(z.string()).nullable(),
  video_id: z.string().nullable(),
  video_url: z.string().nullable(),
  post_data: z.looseObject({}).describe('The post body kept for this network.'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Draft = z.infer<typeof draftSchema>;

export function draftToWire(networks: readonly NetworkContract[], d: DraftRow, requester?: Requester | null): Draft {
  const b = d.body as PostBody;
  const own: Record<string, unknown> = {};
  for (const n of networks) {
    const o = b[n.slug] as Record<string, unknown> | undefined;
    Object.assign(own, n.draftFields?.(o, b));
    if (n.override) own[n.slug] = o ?? null;
  }
  return {
    id: d.id,
    platform: d.platform,
    platform_user_id: d.platformUserId,
    post_type: d.postType,
    status: d.status,
    requested_via: d.requestedVia,
    requested_by: requester ?? null,
    kind: d.kind === 'action' ? 'action' : 'post',
    action: d.kind === 'action' ? actionToWire(d.action as StoredAction) : null,
    default_text: b.default_text ?? null,
    default_image_id: b.default_image_id ?? null,
    default_image_url: b.default_image_url ?? null,
    image_ids: b.image_ids ?? null,
    video_id: b.video_id ?? null,
    video_url: b.video_url ?? null,
    ...own,
    post_data: b as Record<string, unknown>,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

export class DraftService {
  readonly #db: Db;
  readonly #now: () => Date;
  readonly #validator: PostValidator;
  readonly #networks: Pick<Networks, 'networks' | 'overrideKeys'>;

  constructor(
    db: Db,
    now: () => Date,
    validator: PostValidator,
    networks: Pick<Networks, 'networks' | 'overrideKeys'>,
  ) {
    this.#db = db;
    this.#now = now;
    this.#validator = validator;
    this.#networks = networks;
  }

  /** POST /unified/drafts: checked as the post routes check `draft: true`, one draft per network. */
  async create(p: Principal, postType: PostType, body: PostBody): Promise<DraftRef[]> {
    const { targets, imported } = await this.#validator.prepareDrafts(p, postType, body);
    const platforms = [...new Set(targets.map((t) => t.platform))];
    // Drafts keep the library ids of the URLs imported above, so publishing them later downloads nothing.
    return this.saveFromPost(
      p.workspaceId,
      postType,
      withImportedMedia(this.#networks.networks, body, imported),
      platforms,
      null,
    );
  }

  /** A draft's new body (already merged and narrowed), checked like at creation. */
  async edit(p: Principal, id: string, postType: PostType, body: PostBody): Promise<DraftRow> {
    const { imported } = await this.#validator.prepareDrafts(p, postType, body);
    return this.update(p.workspaceId, id, {
      body: withImportedMedia(this.#networks.networks, body, imported),
      postType,
    });
  }

  /** One draft per network; `held` saves a tool's post pending approval (publishing/approval.ts). */
  async saveFromPost(
    workspaceId: string,
    postType: string,
    body: PostBody,
    platforms: string[],
    sourcePostId: string | null,
    tx: Db = this.#db,
    held?: HeldDraft,
  ): Promise<DraftRef[]> {
    const out: DraftRef[] = [];
    for (const platform of platforms) {
      const [row] = await tx
        .insert(drafts)
        .values({
          workspaceId,
          platform,
          postType,
          body: narrowBody(body, platform, this.#networks.overrideKeys),
          sourcePostId,
          ...(held
            ? {
                status: held.status,
                requestedVia: held.requestedVia,
                requestedByUser: held.requestedByUser,
                requestedByKey: held.requestedByKey,
              }
            : {}),
        })
        .returning({ id: drafts.id });
      out.push({ platform, draft_id: row!.id, status: (held?.status ?? 'draft') as 'draft' });
    }
    if (held)
      await recordEvents(
        tx,
        out.map((d) =>
          eventRow(
            workspaceId,
            'post.approval_requested',
            {
              draft_id: d.draft_id,
              platform: d.platform,
              post_type: postType,
              requested_via: held.requestedVia,
              requested_by: held.requestedByUser ?? (held.requestedByKey ? `key:${held.requestedByKey}` : null),
              decided_by: null,
              reason: null,
            },
            { at: this.#now() },
          ),
        ),
      );
    return out;
  }

  /**
   * Many posts' drafts (one per network of each), 2,000 drafts per statement: the rows travel as one JSON parameter
   * (jsonb_to_recordset), and the same statement writes the `post.approval_requested` event of each one held for
   * approval, as saveFromPost does. Ids are made here, so the drafts come back in the order given. The bulk import.
   */
  async saveMany(
    workspaceId: string,
    posts: readonly { postType: string; body: PostBody; platforms: readonly string[]; held?: HeldDraft | undefined }[],
    tx: Db = this.#db,
  ): Promise<DraftRef[][]> {
    const rows = posts.flatMap((post, i) =>
      post.platforms.map((platform) => ({
        post: i,
        id: randomUUID(),
        workspace_id: workspaceId,
        platform,
        post_type: post.postType,
        body: narrowBody(post.body, platform, this.#networks.overrideKeys),
        status: post.held?.status ?? 'draft',
        requested_via: post.held?.requestedVia ?? null,
        requested_by_user: post.held?.requestedByUser ?? null,
        requested_by_key: post.held?.requestedByKey ?? null,
      })),
    );
    for (let i = 0; i < rows.length; i += 2000) {
      const chunk = rows.slice(i, i + 2000).map(({ post: _p, ...r }) => r);
      const now = this.#now().toISOString();
      await tx.execute(sql`
        with r as (
          insert into drafts (id, workspace_id, platform, post_type, body, status, requested_via, requested_by_user,
            requested_by_key)
          select id, workspace_id, platform, post_type, body, status, requested_via, requested_by_user,
            requested_by_key
          from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as x(id uuid, workspace_id uuid, platform text,
            post_type text, body jsonb, status text, requested_via text, requested_by_user uuid, requested_by_key uuid)
          returning id, workspace_id, platform, post_type, status, requested_via, requested_by_user, requested_by_key
        ),
        e as (
          insert into events (workspace_id, type, post_id, platform, data, occurred_at)
          select workspace_id, 'post.approval_requested', null, platform,
            jsonb_build_object('draft_id', id, 'platform', platform, 'post_type', post_type,
              'requested_via', requested_via,
              'requested_by', coalesce(requested_by_user::text, 'key:' || requested_by_key::text),
              'decided_by', null, 'reason', null),
            ${now}::timestamptz
          from r where status = 'pending_approval'
        )
        select count(*) from r`);
    }
    const out: DraftRef[][] = posts.map(() => []);
    for (const r of rows) out[r.post]!.push({ platform: r.platform, draft_id: r.id, status: r.status as 'draft' });
    return out;
  }

  async list(
    workspaceId: string,
    f: {
      platform?: string | undefined;
      platformUserId?: string | undefined;
      status?: string | undefined;
      limit: number;
      offset: number;
    },
  ) {
    const where = and(
      eq(drafts.workspaceId, workspaceId),
      // Without a status: drafts and what waits for approval, not the actions already decided.
      f.status ? eq(drafts.status, f.status) : inArray(drafts.status, ['draft', 'pending_approval']),
      f.platform ? eq(drafts.platform, f.platform) : undefined,
      f.platformUserId ? eq(drafts.platformUserId, f.platformUserId) : undefined,
    );
    const rows = await this.#db
      .select()
      .from(drafts)
      .where(where)
      .orderBy(desc(drafts.createdAt))
      .limit(f.limit)
      .offset(f.offset);
    const [c] = await this.#db.select({ n: sql<number>`count(*)::int` }).from(drafts).where(where);
    return { rows, total: Number(c?.n ?? 0) };
  }

  /** The names of who asked for the held rows among `rows` (members by user id, keys by key id), by draft id. */
  async requesters(workspaceId: string, rows: readonly DraftRow[]): Promise<Map<string, Requester>> {
    const userIds = [...new Set(rows.map((r) => r.requestedByUser).filter((x): x is string => !!x))];
    const keyIds = [...new Set(rows.map((r) => r.requestedByKey).filter((x): x is string => !!x))];
    const people = userIds.length
      ? await this.#db
          .select({ id: users.id, name: users.fullName, email: users.email })
          .from(users)
          .where(inArray(users.id, userIds))
      : [];
    const keys = keyIds.length
      ? await this.#db
          .select({ id: apiKeys.id, name: apiKeys.name })
          .from(apiKeys)
          .where(and(eq(apiKeys.workspaceId, workspaceId), inArray(apiKeys.id, keyIds)))
      : [];
    const out = new Map<string, Requester>();
    for (const r of rows) {
      const u = r.requestedByUser ? people.find((x) => x.id === r.requestedByUser) : undefined;
      const k = !u && r.requestedByKey ? keys.find((x) => x.id === r.requestedByKey) : undefined;
      if (u) out.set(r.id, { kind: 'member', id: u.id, name: u.name, email: u.email });
      else if (k) out.set(r.id, { kind: 'key', id: k.id, name: k.name, email: null });
    }
    return out;
  }

  async get(workspaceId: string, id: string): Promise<DraftRow> {
    const [row] = await this.#db
      .select()
      .from(drafts)
      .where(and(eq(drafts.id, id), eq(drafts.workspaceId, workspaceId)));
    if (!row) throw notFound('Draft not found');
    return row;
  }

  async update(
    workspaceId: string,
    id: string,
    patch: { body: PostBody; postType?: string | undefined },
  ): Promise<DraftRow> {
    const [row] = await this.#db
      .update(drafts)
      .set({ body: patch.body, ...(patch.postType ? { postType: patch.postType } : {}), updatedAt: this.#now() })
      .where(and(eq(drafts.id, id), eq(drafts.workspaceId, workspaceId)))
      .returning();
    if (!row) throw notFound('Draft not found');
    return row;
  }

  /**
   * Deletes a draft. A post held for approval leaving this way was decided: `decision` says how (default: rejected,
   * by nobody known), written as post.approved or post.rejected in the same statement.
   */
  async remove(
    workspaceId: string,
    id: string,
    tx: Db = this.#db,
    decision: { verdict: 'approved' | 'rejected'; by: string | null; reason?: string | null } = {
      verdict: 'rejected',
      by: null,
    },
  ): Promise<void> {
    const res = await tx.execute(sql`
      with gone as (
        delete from drafts where id = ${id}::uuid and workspace_id = ${workspaceId}::uuid returning *
      ),
      ev as (${approvalEvent(`post.${decision.verdict}`, sql`(select * from gone where status = 'pending_approval' and kind = 'post')`, this.#now(), decision.by, decision.reason ?? null)})
      select id from gone`);
    if (!rowsOf(res).length) throw notFound('Draft not found');
  }
}
