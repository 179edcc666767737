// The mail Herald sent during the run, as the SMTP catcher of global-setup.ts wrote it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';

/** The text of a raw message: headers dropped, quoted-printable undone (soft line breaks and =XX bytes). */
function textOf(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  if (!/content-transfer-encoding:\s*quoted-printable/i.test(raw)) return body;
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Waits for the newest mail to `to` and answers its text. */
export async function mailTo(to: string): Promise<string> {
  const dir = process.env.HERALD_E2E_MAIL_DIR;
  if (!dir) throw new Error('HERALD_E2E_MAIL_DIR is not set: run the suite with its global setup');
  const newest = () =>
    readdirSync(dir)
      .filter((f) => f.endsWith(`-${to}.eml`))
      .sort()
      .at(-1);
  await expect.poll(newest, { message: `a mail to ${to}` }).toBeDefined();
  return textOf(readFileSync(join(dir, newest()!), 'utf8'));
}

/** The first link in `text` to one of Herald's pages (`/reset-password?token=…`), as a path with its query. */
export function pageLink(text: string, page: string): string {
  const m = new RegExp(`https?://\\S+(/${page}\\?token=[^\\s]+)`).exec(text);
  if (!m) throw new Error(`no /${page} link in:\n${text}`);
  return m[1]!;
}
