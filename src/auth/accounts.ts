// Users: signup, login, lookup. Signup creates the user and their first workspace in one transaction.
import { count, eq, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { AppError, conflict, validationField } from '../errors.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { InvitationService } from './invitations.ts';
import type { SessionService } from './sessions.ts';
import type { WorkspaceService } from './workspaces.ts';

export type UserRow = typeof users.$inferSelect;

export interface PublicUser {
  id: string;
  email: string;
  username: string | null;
  full_name: string | null;
  is_active: boolean;
  is_admin: boolean;
  email_verified: boolean;
  must_set_password: boolean;
  created_at: string;
  updated_at: string;
}

export function publicUser(u: UserRow): PublicUser {
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    full_name: u.fullName,
    is_active: u.isActive,
    is_admin: u.isAdmin,
    // Herald sends no verification mail: addresses are trusted as given.
    email_verified: true,
    must_set_password: false,
    created_at: u.createdAt.toISOString(),
    updated_at: u.updatedAt.toISOString(),
  };
}

export interface SignupInput {
  email: string;
  password: string;
  full_name?: string | undefined;
  username?: string | undefined;
  workspace_name?: string | undefined;
  /** Joins the inviting workspace too; admits the address when sign-up is by invitation only. */
  invitation_token?: string | undefined;
}

// Any constant: serialises signups so exactly one "first user" becomes the admin.
const SIGNUP_LOCK = 7_246_813_508;

export class AccountService {
  readonly #db: Db;
  readonly #workspaces: WorkspaceService;
  readonly #invitations: InvitationService;
  readonly #sessions: SessionService;
  readonly #signup: 'open' | 'invite';

  constructor(deps: {
    db: Db;
    workspaces: WorkspaceService;
    invitations: InvitationService;
    sessions: SessionService;
    signup: 'open' | 'invite';
  }) {
    this.#db = deps.db;
    this.#workspaces = deps.workspaces;
    this.#invitations = deps.invitations;
    this.#sessions = deps.sessions;
    this.#signup = deps.signup;
  }

  /** Creates a user and their first workspace. `force` is for administrators (CLI, admin routes). */
  async signup(input: SignupInput, opts: { force?: boolean; admin?: boolean } = {}): Promise<UserRow> {
    const passwordHash = await hashPassword(input.password);
    const email = input.email.trim();
    return this.#db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SIGNUP_LOCK})`);
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(users);
      const first = Number(n) === 0;
      const token = input.invitation_token;
      if (token !== undefined) {
        const invitation = await this.#invitations.pendingByToken(token, tx as unknown as Db);
        if (!invitation || invitation.email.trim().toLowerCase() !== email.toLowerCase()) {
          throw validationField(
            ['body', 'invitation_token'],
            'This invitation is invalid, has expired, or was sent to another address.',
          );
        }
      }
      if (!first && this.#signup === 'invite' && !opts.force && token === undefined) {
        throw new AppError(
          'forbidden',
          'Sign-up on this server is by invitation only (HERALD_SIGNUP=invite). Ask a workspace owner to invite this address and sign up with the invitation_token it carries, or ask an administrator to create the account.',
        );
      }
      const existing = await tx
        .select({ id: users.id })
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
      if (existing.length) throw conflict('An account with this email already exists.');
      const [user] = await tx
        .insert(users)
        .values({
          email,
          passwordHash,
          fullName: input.full_name ?? null,
          username: input.username ?? null,
          isAdmin: first || Boolean(opts.admin),
        })
        .returning();
      const name = input.workspace_name?.trim() || `${input.full_name?.trim() || email.split('@')[0]}'s workspace`;
      await this.#workspaces.createInTx(tx as unknown as Db, user!.id, name);
      if (token !== undefined) await this.#invitations.acceptInTx(tx as unknown as Db, user!, token);
      return user!;
    });
  }

  /** Returns the user for valid credentials, or null; callers must not say which part was wrong. */
  async login(email: string, password: string): Promise<UserRow | null> {
    const [user] = await this.#db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()));
    const ok = await verifyPassword(user?.passwordHash, password);
    return ok && user?.isActive ? user : null;
  }

  /** Changes the password and revokes every session; the caller issues a fresh one under the returned version. */
  async changePassword(user: UserRow, current: string, next: string): Promise<UserRow> {
    if (!(await verifyPassword(user.passwordHash, current))) {
      throw validationField(['body', 'current_password'], 'The current password is not correct.', 'password_mismatch');
    }
    const passwordHash = await hashPassword(next);
    return this.#db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
      const sessionVersion = await this.#sessions.revokeAll(user.id, tx as unknown as Db);
      return { ...user, passwordHash, sessionVersion };
    });
  }

  async byId(id: string): Promise<UserRow | undefined> {
    const [user] = await this.#db.select().from(users).where(eq(users.id, id));
    return user;
  }

  async byEmail(email: string): Promise<UserRow | undefined> {
    const [user] = await this.#db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()));
    return user;
  }
}
