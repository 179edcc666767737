import { randomBytes } from 'node:crypto';
import { and, count, eq, inArray, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { users, workspaceMembers, workspaces } from '../db/schema.ts';
import { AppError, notFound } from '../errors.ts';
import type { Platform } from './scopes.ts';
import type { PlanCatalog } from './plans.ts';

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type Role = 'owner' | 'member';

/** Answers which networks a workspace has connected; the connections module plugs in here. */
export type ConnectedPlatforms = (workspaceIds: string[]) => Promise<Map<string, Set<Platform>>>;

function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${base || 'workspace'}-${randomBytes(3).toString('hex')}`;
}

/** What others do when a workspace's plan changes, given at construction. */
export interface WorkspaceHooks {
  /** Work done in the plan change's own transaction (credits resynchronise their running totals). */
  planChanging?: (tx: Db, workspaceId: string) => Promise<void>;
  /** Called after a workspace's plan changed, so caches holding plan-derived answers drop them. */
  planChanged?: (workspaceId: string) => void;
  /** Called after a member was removed or left: what they had through the workspace ends (chat connectors' grants). */
  memberRemoved?: (workspaceId: string, userId: string) => Promise<unknown>;
}

export class WorkspaceService {
  readonly #db: Db;
  readonly #plans: PlanCatalog;
  readonly #defaultPlan: string;
  readonly #connectedPlatforms: ConnectedPlatforms;
  readonly #hooks: WorkspaceHooks;
  readonly #slugs: readonly Platform[];

  /**
   * `connectedPlatforms`: which networks each workspace has connected (the connection store's answer); `slugs`: the
   * registry's networks, each with its `<slug>_connected` flag on the wire.
   */
  constructor(
    db: Db,
    plans: PlanCatalog,
    defaultPlan: string,
    connectedPlatforms: ConnectedPlatforms,
    slugs: readonly Platform[],
    hooks: WorkspaceHooks = {},
  ) {
    this.#hooks = hooks;
    this.#connectedPlatforms = connectedPlatforms;
    this.#slugs = slugs;
    this.#db = db;
    this.#plans = plans;
    this.#defaultPlan = defaultPlan;
  }

  /** The networks each of these workspaces has connected. */
  connectedPlatforms(ids: string[]): ReturnType<ConnectedPlatforms> {
    return this.#connectedPlatforms(ids);
  }

  async createInTx(tx: Db, ownerId: string, name: string): Promise<WorkspaceRow> {
    const [ws] = await tx
      .insert(workspaces)
      .values({ name, slug: slugify(name), ownerId, planId: this.#defaultPlan })
      .returning();
    await tx.insert(workspaceMembers).values({ workspaceId: ws!.id, userId: ownerId, role: 'owner' });
    return ws!;
  }

  /** Creates a further workspace, within the workspace limit of the owner's most generous plan. */
  async create(ownerId: string, name: string): Promise<WorkspaceRow> {
    return this.#db.transaction(async (tx) => {
      const owned = await tx
        .select({ planId: workspaces.planId })
        .from(workspaces)
        .where(eq(workspaces.ownerId, ownerId));
      const planIds = owned.length ? owned.map((o) => o.planId) : [this.#defaultPlan];
      const limits = planIds.map((p) => this.#plans.get(p).limits.max_workspaces);
      const limit = limits.includes(null) ? null : Math.max(...(limits as number[]));
      if (limit !== null && owned.length >= limit) {
        throw new AppError('limit_reached', {
          error: 'workspace_limit',
          used: owned.length,
          limit,
          message: `Workspace limit reached: your plan allows ${limit} workspace(s).`,
        });
      }
      return this.createInTx(tx as unknown as Db, ownerId, name);
    });
  }

  /**
   * The user's own workspaces first, then the ones they joined, each oldest first: a stable order to pick the first
   * from.
   */
  async listForUser(userId: string): Promise<(WorkspaceRow & { role: Role })[]> {
    const rows = await this.#db
      .select({ ws: workspaces, role: workspaceMembers.role })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(eq(workspaceMembers.userId, userId))
      .orderBy(sql`case when ${workspaces.ownerId} = ${userId} then 0 else 1 end`, workspaces.createdAt, workspaces.id);
    return rows.map((r) => ({ ...r.ws, role: r.role }));
  }

  async membership(workspaceId: string, userId: string): Promise<{ ws: WorkspaceRow; role: Role } | undefined> {
    const [row] = await this.#db
      .select({ ws: workspaces, role: workspaceMembers.role })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
    return row;
  }

  /** The plan of each of these workspaces (absent: the workspace is gone), in one read. */
  async plansOf(ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.#db
      .select({ id: workspaces.id, planId: workspaces.planId })
      .from(workspaces)
      .where(inArray(workspaces.id, ids));
    return new Map(rows.map((r) => [r.id, r.planId]));
  }

  async byId(id: string): Promise<WorkspaceRow | undefined> {
    const [ws] = await this.#db.select().from(workspaces).where(eq(workspaces.id, id));
    return ws;
  }

  async setPlan(id: string, planId: string): Promise<WorkspaceRow> {
    if (!this.#plans.has(planId))
      throw new AppError('validation', [
        {
          loc: ['body', 'plan_id'],
          msg: `Unknown plan '${planId}'. Known: ${this.#plans
            .list()
            .map((p) => p.plan_id)
            .join(', ')}`,
          type: 'enum',
        },
      ]);
    const ws = await this.#db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const [row] = await tx
        .update(workspaces)
        .set({ planId, updatedAt: new Date() })
        .where(eq(workspaces.id, id))
        .returning();
      if (row) await this.#hooks.planChanging?.(tx, id);
      return row;
    });
    if (!ws) throw notFound('Workspace not found');
    this.#hooks.planChanged?.(id);
    return ws;
  }

  async ownedCount(userId: string): Promise<number> {
    const [r] = await this.#db.select({ n: count() }).from(workspaces).where(eq(workspaces.ownerId, userId));
    return Number(r?.n ?? 0);
  }

  /** How many workspaces the owner of this workspace owns, in one query. */
  async ownedCountOfWorkspaceOwner(workspaceId: string): Promise<number> {
    const res = await this.#db.execute(
      sql`select count(*)::int as n from workspaces w where w.owner_id = (select owner_id from workspaces where id = ${workspaceId})`,
    );
    return Number((res as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  }

  async members(workspaceId: string, tx: Db = this.#db) {
    return tx
      .select({
        userId: workspaceMembers.userId,
        role: workspaceMembers.role,
        createdAt: workspaceMembers.createdAt,
        email: users.email,
        fullName: users.fullName,
      })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .where(eq(workspaceMembers.workspaceId, workspaceId))
      .orderBy(workspaceMembers.createdAt);
  }

  /** 403 team_member_limit unless `adding` more members fit the plan (pending invitations count as members). */
  async assertMemberRoom(tx: Db, ws: WorkspaceRow, adding: number, pendingInvitations = 0): Promise<void> {
    const limit = this.#plans.get(ws.planId).limits.max_team_members_per_workspace;
    if (limit === null) return;
    const [r] = await tx.select({ n: count() }).from(workspaceMembers).where(eq(workspaceMembers.workspaceId, ws.id));
    const used = Number(r?.n ?? 0) + pendingInvitations;
    if (used + adding > limit) {
      throw new AppError('limit_reached', {
        error: 'team_member_limit',
        used,
        limit,
        message: `Member limit reached: the ${ws.planId} plan allows ${limit} member(s) per workspace.`,
      });
    }
  }

  /** Adds a user who accepted an invitation; someone already a member keeps their role. */
  async addMemberInTx(tx: Db, ws: WorkspaceRow, userId: string, role: Role): Promise<Role> {
    const [existing] = await tx
      .select()
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, ws.id), eq(workspaceMembers.userId, userId)));
    if (existing) return existing.role;
    await this.assertMemberRoom(tx, ws, 1);
    await tx.insert(workspaceMembers).values({ workspaceId: ws.id, userId, role });
    return role;
  }

  /** Changes a member's role; the last owner cannot step down. */
  async setRole(workspaceId: string, userId: string, role: Role): Promise<void> {
    await this.#db.transaction(async (tx) => {
      await this.#assertOwnerRemains(tx as unknown as Db, workspaceId, userId, role);
      const changed = await tx
        .update(workspaceMembers)
        .set({ role })
        .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
        .returning();
      if (!changed.length) throw notFound('Member not found');
    });
  }

  async update(
    id: string,
    patch: { name?: string; timeZone?: string; locale?: string | null; toolPostsNeedApproval?: boolean },
  ): Promise<WorkspaceRow> {
    const [ws] = await this.#db
      .update(workspaces)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(workspaces.id, id))
      .returning();
    if (!ws) throw notFound('Workspace not found');
    return ws;
  }

  async removeMember(workspaceId: string, userId: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      await this.#assertOwnerRemains(tx as unknown as Db, workspaceId, userId, null);
      const gone = await tx
        .delete(workspaceMembers)
        .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
        .returning();
      if (!gone.length) throw notFound('Member not found');
    });
    await this.#hooks.memberRemoved?.(workspaceId, userId);
  }

  /** A workspace always keeps at least one owner. */
  async #assertOwnerRemains(tx: Db, workspaceId: string, userId: string, newRole: Role | null): Promise<void> {
    if (newRole === 'owner') return;
    const owners = await tx
      .select({ userId: workspaceMembers.userId })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'owner')));
    if (owners.length === 1 && owners[0]!.userId === userId)
      throw new AppError('conflict', 'A workspace must keep at least one owner.');
  }

  async ownerIds(workspaceId: string): Promise<string[]> {
    const rows = await this.#db
      .select({ userId: workspaceMembers.userId })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'owner')));
    return rows.map((r) => r.userId);
  }

  async toWire(list: (WorkspaceRow & { role?: Role })[]) {
    const connected = list.length
      ? await this.connectedPlatforms(list.map((w) => w.id))
      : new Map<string, Set<Platform>>();
    const members = list.length
      ? await this.#db
          .select({ id: workspaceMembers.workspaceId, n: count() })
          .from(workspaceMembers)
          .where(
            inArray(
              workspaceMembers.workspaceId,
              list.map((w) => w.id),
            ),
          )
          .groupBy(workspaceMembers.workspaceId)
      : [];
    const memberCount = new Map(members.map((m) => [m.id, Number(m.n)]));
    return list.map((w) => {
      const set = connected.get(w.id) ?? new Set<Platform>();
      const flags = Object.fromEntries(this.#slugs.map((p) => [`${p}_connected`, set.has(p)]));
      return {
        id: w.id,
        name: w.name,
        slug: w.slug,
        owner_id: w.ownerId,
        plan_id: w.planId,
        time_zone: w.timeZone,
        locale: w.locale,
        tool_posts_need_approval: w.toolPostsNeedApproval,
        role: w.role ?? null,
        created_at: w.createdAt.toISOString(),
        updated_at: w.updatedAt.toISOString(),
        ...flags,
        connected_social_count: set.size,
        member_count: memberCount.get(w.id) ?? 0,
      };
    });
  }
}
