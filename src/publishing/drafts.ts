// Drafts: one per network, holding the unified body narrowed to that network.
import type { Db } from '../db/client.ts';
import { and, desc, eq, sql } from '../db/orm.ts';
import { drafts } from '../db/schema-publishing.ts';
import { notFound } from '../errors.ts';
import type { NetworkContract } from '../platforms/contract.ts';
import type { PostBody } from './schemas.ts';

export type DraftRow = typeof drafts.$inferSelect;

/** The body for one network: its own override only (`overrideKeys`: the registry's), no draft flags. */
export function narrowBody(body: PostBody, platform: string, overrideKeys: readonly string[]): PostBody {
  const { draft: _d, draft_platforms: _dp, ...rest } = body;
  const out: Record<string, unknown> = { ...rest, platforms: [platform] };
  for (const k of overrideKeys) if (k !== platform) delete out[k];
  return out as PostBody;
}

/** A draft as the interface shows it; each network adds its override object and its own summary fields (`draftFields`). */
export function draftToWire(networks: readonly NetworkContract[], d: DraftRow) {
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
    default_text: b.default_text ?? null,
    default_image_id: b.default_image_id ?? null,
    default_image_url: b.default_image_url ?? null,
    image_ids: b.image_ids ?? null,
    video_id: b.video_id ?? null,
    video_url: b.video_url ?? null,
    ...own,
    post_data: b,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

export class DraftService {
  readonly #db: Db;
  readonly #now: () => Date;
  readonly #overrideKeys: readonly string[];

  constructor(db: Db, now: () => Date, overrideKeys: readonly string[]) {
    this.#db = db;
    this.#now = now;
    this.#overrideKeys = overrideKeys;
  }

  async saveFromPost(workspaceId: string, postType: string, body: PostBody, platforms: string[], sourcePostId: string | null) {
    const out: { platform: string; draft_id: string; status: 'draft' }[] = [];
    for (const platform of platforms) {
      const [row] = await this.#db
        .insert(drafts)
        .values({ workspaceId, platform, postType, body: narrowBody(body, platform, this.#overrideKeys), sourcePostId })
        .returning({ id: drafts.id });
      out.push({ platform, draft_id: row!.id, status: 'draft' });
    }
    return out;
  }

  async list(workspaceId: string, f: { platform?: string | undefined; platformUserId?: string | undefined; limit: number; offset: number }) {
    const where = and(
      eq(drafts.workspaceId, workspaceId),
      f.platform ? eq(drafts.platform, f.platform) : undefined,
      f.platformUserId ? eq(drafts.platformUserId, f.platformUserId) : undefined,
    );
    const rows = await this.#db.select().from(drafts).where(where).orderBy(desc(drafts.createdAt)).limit(f.limit).offset(f.offset);
    const [c] = await this.#db.select({ n: sql<number>`count(*)::int` }).from(drafts).where(where);
    return { rows, total: Number(c?.n ?? 0) };
  }

  async get(workspaceId: string, id: string): Promise<DraftRow> {
    const [row] = await this.#db.select().from(drafts).where(and(eq(drafts.id, id), eq(drafts.workspaceId, workspaceId)));
    if (!row) throw notFound('Draft not found');
    return row;
  }

  async update(workspaceId: string, id: string, patch: { body: PostBody; postType?: string | undefined }): Promise<DraftRow> {
    const [row] = await this.#db
      .update(drafts)
      .set({ body: patch.body, ...(patch.postType ? { postType: patch.postType } : {}), updatedAt: this.#now() })
      .where(and(eq(drafts.id, id), eq(drafts.workspaceId, workspaceId)))
      .returning();
    if (!row) throw notFound('Draft not found');
    return row;
  }

  async remove(workspaceId: string, id: string, tx: Db = this.#db): Promise<void> {
    const gone = await tx.delete(drafts).where(and(eq(drafts.id, id), eq(drafts.workspaceId, workspaceId))).returning({ id: drafts.id });
    if (!gone.length) throw notFound('Draft not found');
  }
}
