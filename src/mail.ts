// Notifications by mail: through SMTP when HERALD_SMTP_URL is set, otherwise into the outbox table
// (and the log) so an operator without a mail server still sees what would have been sent.
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Db } from './db/client.ts';
import { mailOutbox } from './db/schema.ts';
import { asc, eq } from './db/orm.ts';

/** What answers say when a mail could not leave because no SMTP server is configured. */
export const MAIL_NOT_CONFIGURED =
  'Mail is not configured on this server (HERALD_SMTP_URL), so nothing was sent: the mail waits in the outbox, where the operator reads it with `herald mail outbox` or GET /admin/mail/outbox.';

export type OutboxRow = typeof mailOutbox.$inferSelect;

/** A waiting mail as `herald mail outbox` prints it and GET /admin/mail/outbox returns it. */
export const outboxToWire = (m: OutboxRow) => ({
  id: m.id,
  created_at: m.createdAt.toISOString(),
  kind: m.kind,
  to: m.toAddress,
  subject: m.subject,
  body: m.body,
});

export interface MailMessage {
  workspaceId: string | null;
  to: string;
  subject: string;
  body: string;
  kind: string;
  /**
   * Single-use tokens in the body. Once SMTP delivered the mail, the outbox copy shows them redacted;
   * without SMTP the outbox is how the operator relays the mail, so it keeps them.
   */
  secrets?: string[];
}

export class Mailer {
  readonly #db: Db;
  readonly #logger: Logger;
  readonly #from: string;
  readonly #smtpUrl: string | undefined;
  #transport: Promise<Transporter> | undefined;
  readonly #now: () => Date;

  constructor(opts: { db: Db; logger: Logger; from: string; smtpUrl?: string | undefined; now: () => Date }) {
    this.#db = opts.db;
    this.#logger = opts.logger;
    this.#from = opts.from;
    this.#now = opts.now;
    this.#smtpUrl = opts.smtpUrl;
  }

  /** Whether mail actually leaves (an SMTP server is configured). */
  get configured(): boolean {
    return Boolean(this.#smtpUrl);
  }

  /** Mails waiting in the outbox (no SMTP when they were written), oldest first. */
  async pending(limit = 100): Promise<OutboxRow[]> {
    return this.#db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.status, 'queued'))
      .orderBy(asc(mailOutbox.createdAt))
      .limit(limit);
  }

  /** Never throws: a failed notification must not fail the action that caused it. */
  async send(msg: MailMessage): Promise<void> {
    if (!this.#smtpUrl) {
      await this.#record(msg, 'queued', null);
      this.#logger.info(
        { kind: msg.kind, to: msg.to, subject: msg.subject },
        'mail stored in outbox (no SMTP configured)',
      );
      return;
    }
    try {
      // nodemailer is loaded on the first mail, only where SMTP is configured.
      this.#transport ??= import('nodemailer').then((m) => m.default.createTransport(this.#smtpUrl));
      await (await this.#transport).sendMail({ from: this.#from, to: msg.to, subject: msg.subject, text: msg.body });
      await this.#record(redacted(msg), 'sent', null);
    } catch (err) {
      this.#logger.warn({ kind: msg.kind, to: msg.to, error: (err as Error).message }, 'mail delivery failed');
      await this.#record(redacted(msg), 'failed', (err as Error).message).catch(() => {});
    }
  }

  async #record(msg: MailMessage, status: 'queued' | 'sent' | 'failed', error: string | null): Promise<void> {
    await this.#db.insert(mailOutbox).values({
      workspaceId: msg.workspaceId,
      toAddress: msg.to,
      subject: msg.subject,
      body: msg.body,
      kind: msg.kind,
      status,
      error,
      sentAt: status === 'sent' ? this.#now() : null,
    });
  }
}

function redacted(msg: MailMessage): MailMessage {
  let body = msg.body;
  for (const secret of msg.secrets ?? []) if (secret) body = body.split(secret).join('[redacted]');
  return { ...msg, body };
}
