// Password reset by mail. A request answers at once and the same way for every address: the lookup,
// the token and the mail happen afterwards, so neither the answer nor its timing says whether an
// account exists. Tokens are random, stored hashed, single-use and short-lived; a reset revokes
// every session of the account.
import type { Logger } from 'pino';
import { and, eq, gt, isNull } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { passwordResetTokens } from '../db/schema-accounts.ts';
import { AppError } from '../errors.ts';
import type { Mailer } from '../mail.ts';
import type { AccountService } from './accounts.ts';
import { hashPassword } from './passwords.ts';
import { hashSecretToken, newSecretToken } from './secret-token.ts';
import type { SessionService } from './sessions.ts';

export interface PasswordResetDeps {
  db: Db;
  accounts: AccountService;
  sessions: SessionService;
  mailer: Mailer;
  clock: () => Date;
  logger: Logger;
  publicUrl: string;
  /** The web app's page for a token (`reset-password?token=…`); undefined when the app is turned off. */
  pageUrl?: (page: string, token: string) => string | undefined;
  ttlSeconds: number;
}

/** One reset mail per account per this interval, whatever the number of requests (no mail bombing). */
const RESEND_AFTER_MS = 60_000;

export const FORGOT_PASSWORD_MESSAGE = 'If an account exists for this address, a password reset link is on its way.';

export class PasswordResetService {
  readonly #d: PasswordResetDeps;
  readonly #inflight = new Set<Promise<void>>();

  constructor(deps: PasswordResetDeps) {
    this.#d = deps;
  }

  /** POST /auth/forgot-password: never fails and never waits for the lookup or the mail. */
  request(email: string): void {
    const work = this.#send(email)
      .catch((err: unknown) => this.#d.logger.error({ err }, 'password reset request failed'))
      .finally(() => this.#inflight.delete(work));
    this.#inflight.add(work);
  }

  /** Resolves once every reset request made so far has been handled (shutdown, tests). */
  async settled(): Promise<void> {
    while (this.#inflight.size) await Promise.all([...this.#inflight]);
  }

  async #send(email: string): Promise<void> {
    const user = await this.#d.accounts.byEmail(email);
    if (!user?.isActive) return;
    const now = this.#d.clock();
    const { token, hash } = newSecretToken();
    const expiresAt = new Date(now.getTime() + this.#d.ttlSeconds * 1000);
    const created = await this.#d.db.transaction(async (tx) => {
      // Serialises this user's requests so the resend interval holds under concurrency.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
      const [recent] = await tx
        .select({ id: passwordResetTokens.id })
        .from(passwordResetTokens)
        .where(
          and(
            eq(passwordResetTokens.userId, user.id),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.createdAt, new Date(now.getTime() - RESEND_AFTER_MS)),
          ),
        );
      if (recent) return false;
      await tx.insert(passwordResetTokens).values({ userId: user.id, tokenHash: hash, expiresAt, createdAt: now });
      return true;
    });
    if (!created) return;
    const base = this.#d.publicUrl;
    const link = this.#d.pageUrl?.('reset-password', token);
    await this.#d.mailer.send({
      workspaceId: null,
      to: user.email,
      kind: 'password_reset',
      subject: 'Reset your Herald password',
      body: [
        `Someone (hopefully you) asked to reset the password of the Herald account ${user.email} at ${base}.`,
        '',
        ...(link ? [`Choose a new password here: ${link}`, ''] : []),
        `Reset token: ${token}`,
        `It can be used once, until ${expiresAt.toISOString()}: POST ${base}/auth/reset-password with {"token": "<the token>", "new_password": "..."}.`,
        'Resetting signs out every session of the account.',
        '',
        'If you did not ask for this, ignore this mail: your password stays as it is.',
      ].join('\n'),
      secrets: [token],
    });
  }

  #usable(token: string) {
    return and(
      eq(passwordResetTokens.tokenHash, hashSecretToken(token)),
      isNull(passwordResetTokens.usedAt),
      gt(passwordResetTokens.expiresAt, this.#d.clock()),
    )!;
  }

  /** GET /auth/verify-reset-token: whether the token can still be used (it is not consumed). */
  async verify(token: string): Promise<boolean> {
    const [row] = await this.#d.db
      .select({ id: passwordResetTokens.id })
      .from(passwordResetTokens)
      .where(this.#usable(token));
    return Boolean(row);
  }

  /** Sets the new password, consumes the token (and any other of the account) and revokes every session. */
  async reset(token: string, newPassword: string): Promise<void> {
    const passwordHash = await hashPassword(newPassword);
    const now = this.#d.clock();
    const done = await this.#d.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const [used] = await tx
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(this.#usable(token))
        .returning({ userId: passwordResetTokens.userId });
      if (!used) return false;
      const [user] = await tx
        .update(users)
        .set({ passwordHash, updatedAt: now })
        .where(and(eq(users.id, used.userId), eq(users.isActive, true)))
        .returning({ id: users.id });
      if (!user) return false;
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
      await this.#d.sessions.revokeAll(user.id, tx);
      return true;
    });
    if (!done)
      throw new AppError(
        'bad_request',
        'This reset token is invalid, has expired or was already used. Ask for a new one.',
      );
  }
}
