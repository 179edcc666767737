// Workspace invitations: nobody joins a workspace without accepting. The inviter gets the same answer
// whether or not the address has an account (no account oracle); the invitee accepts with the token
// while signed in with the invited address, or signs up with it.
import type { Logger } from 'pino';
import { and, desc, eq, gt, isNull, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { workspaces } from '../db/schema.ts';
import { workspaceInvitations } from '../db/schema-accounts.ts';
import { AppError, conflict, notFound } from '../errors.ts';
import type { Mailer } from '../mail.ts';
import type { UserRow } from './accounts.ts';
import { hashSecretToken, newSecretToken } from './secret-token.ts';
import type { Role, WorkspaceRow, WorkspaceService } from './workspaces.ts';

export type InvitationRow = typeof workspaceInvitations.$inferSelect;
export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface InvitationDeps {
  db: Db;
  workspaces: WorkspaceService;
  mailer: Mailer;
  clock: () => Date;
  logger: Logger;
  publicUrl: string;
  /** The web app's page for a token (`accept-invitation?token=…`); undefined when the app is turned off. */
  pageUrl?: (page: string, token: string) => string | undefined;
  ttlSeconds: number;
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export const invalidInvitation = () =>
  new AppError('bad_request', 'This invitation is invalid, has expired, was revoked or was already used.');

export class InvitationService {
  readonly #d: InvitationDeps;

  constructor(deps: InvitationDeps) {
    this.#d = deps;
  }

  status(row: InvitationRow): InvitationStatus {
    if (row.acceptedAt) return 'accepted';
    if (row.revokedAt) return 'revoked';
    return row.expiresAt.getTime() <= this.#d.clock().getTime() ? 'expired' : 'pending';
  }

  toWire(row: InvitationRow) {
    return {
      id: row.id,
      workspace_id: row.workspaceId,
      email: row.email,
      role: row.role,
      status: this.status(row),
      invited_by: row.invitedBy,
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt.toISOString(),
      accepted_at: row.acceptedAt?.toISOString() ?? null,
    };
  }

  /**
   * Invites an address (a new invitation replaces a pending one for the same address). Members are
   * visible to owners anyway, so inviting one is a 409; whether the address has an account is never said.
   */
  async create(
    ws: WorkspaceRow,
    inviter: UserRow,
    email: string,
    role: Role,
  ): Promise<{ row: InvitationRow; token: string }> {
    const address = email.trim();
    const now = this.#d.clock();
    const { token, hash } = newSecretToken();
    const row = await this.#d.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      // Serialises invitations of one workspace, so two at once cannot both take the last seat.
      await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, ws.id)).for('update');
      const members = await this.#d.workspaces.members(ws.id, tx);
      if (members.some((m) => sameEmail(m.email, address)))
        throw conflict('This address is already a member of the workspace.');
      await tx
        .update(workspaceInvitations)
        .set({ revokedAt: now })
        .where(
          and(
            eq(workspaceInvitations.workspaceId, ws.id),
            eq(sql`lower(${workspaceInvitations.email})`, address.toLowerCase()),
            this.#pending(),
          ),
        );
      const [pending] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(workspaceInvitations)
        .where(and(eq(workspaceInvitations.workspaceId, ws.id), this.#pending()));
      await this.#d.workspaces.assertMemberRoom(tx, ws, 1, Number(pending?.n ?? 0));
      const [inserted] = await tx
        .insert(workspaceInvitations)
        .values({
          workspaceId: ws.id,
          email: address,
          role,
          tokenHash: hash,
          invitedBy: inviter.id,
          createdAt: now,
          expiresAt: new Date(now.getTime() + this.#d.ttlSeconds * 1000),
        })
        .returning();
      return inserted!;
    });
    await this.#mail(ws, inviter, row, token);
    return { row, token };
  }

  #pending() {
    return and(
      isNull(workspaceInvitations.acceptedAt),
      isNull(workspaceInvitations.revokedAt),
      gt(workspaceInvitations.expiresAt, this.#d.clock()),
    )!;
  }

  async #mail(ws: WorkspaceRow, inviter: UserRow, row: InvitationRow, token: string): Promise<void> {
    const base = this.#d.publicUrl;
    const link = this.#d.pageUrl?.('accept-invitation', token);
    await this.#d.mailer.send({
      workspaceId: ws.id,
      to: row.email,
      kind: 'workspace_invitation',
      subject: `You are invited to the Herald workspace "${ws.name}"`,
      body: [
        `${inviter.email} invited you to join the Herald workspace "${ws.name}" as ${row.role}.`,
        '',
        ...(link ? [`Accept it here (sign in, or create an account, as ${row.email}): ${link}`, ''] : []),
        `Invitation token: ${token}`,
        `It can be used once, until ${row.expiresAt.toISOString()}.`,
        '',
        `${link ? 'From a program: sign' : 'To accept, sign'} in to Herald (${base}) as ${row.email} and send POST ${base}/invitations/accept with {"token": "<the token>"},`,
        `or create an account with this address: POST ${base}/auth/signup with "invitation_token": "<the token>".`,
        '',
        'If you do not know this workspace or its owner, ignore this mail: nothing happens unless you accept.',
      ].join('\n'),
      secrets: [token],
    });
  }

  async list(workspaceId: string): Promise<InvitationRow[]> {
    return this.#d.db
      .select()
      .from(workspaceInvitations)
      .where(eq(workspaceInvitations.workspaceId, workspaceId))
      .orderBy(desc(workspaceInvitations.createdAt), desc(workspaceInvitations.id));
  }

  async revoke(workspaceId: string, id: string): Promise<InvitationRow> {
    const [row] = await this.#d.db
      .update(workspaceInvitations)
      .set({ revokedAt: this.#d.clock() })
      .where(and(eq(workspaceInvitations.id, id), eq(workspaceInvitations.workspaceId, workspaceId), this.#pending()))
      .returning();
    if (row) return row;
    const [other] = await this.#d.db
      .select()
      .from(workspaceInvitations)
      .where(and(eq(workspaceInvitations.id, id), eq(workspaceInvitations.workspaceId, workspaceId)));
    if (!other) throw notFound('Invitation not found');
    throw conflict(`This invitation is already ${this.status(other)}.`);
  }

  /** The pending invitation a token stands for, or null (signup checks the address before creating anyone). */
  async pendingByToken(token: string, tx: Db = this.#d.db): Promise<InvitationRow | null> {
    const [row] = await tx
      .select()
      .from(workspaceInvitations)
      .where(and(eq(workspaceInvitations.tokenHash, hashSecretToken(token)), this.#pending()));
    return row ?? null;
  }

  /** Accepts in the caller's transaction: marks the invitation used (once) and adds the membership. */
  async acceptInTx(tx: Db, user: UserRow, token: string): Promise<{ ws: WorkspaceRow; role: Role }> {
    const found = await this.pendingByToken(token, tx);
    if (!found) throw invalidInvitation();
    if (!sameEmail(found.email, user.email)) {
      throw new AppError(
        'forbidden',
        'This invitation was sent to another address: sign in with that address to accept it.',
      );
    }
    const [row] = await tx
      .update(workspaceInvitations)
      .set({ acceptedAt: this.#d.clock(), acceptedBy: user.id })
      .where(and(eq(workspaceInvitations.id, found.id), this.#pending()))
      .returning();
    if (!row) throw invalidInvitation();
    const [ws] = await tx.select().from(workspaces).where(eq(workspaces.id, row.workspaceId)).for('update');
    if (!ws) throw invalidInvitation();
    const role = await this.#d.workspaces.addMemberInTx(tx, ws, user.id, row.role);
    return { ws, role };
  }

  async accept(user: UserRow, token: string): Promise<{ ws: WorkspaceRow; role: Role }> {
    return this.#d.db.transaction((tx) => this.acceptInTx(tx as unknown as Db, user, token));
  }
}
