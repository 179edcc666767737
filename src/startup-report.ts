// What `herald serve` says once it listens: one summary (where to go, where the data is, what is switched on), and
// a warning for each setting that leaves the server more open, or less usable, than its operator may think.
import { resolve } from 'node:path';
import type { Config } from './config.ts';

export interface Listening {
  url: string;
  metricsUrl: string | undefined;
}

const LOOPBACK_HOST = /^(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** The address to open: a wildcard bind is reachable locally as localhost. */
export function localUrl(running: Pick<Listening, 'url'>): string {
  return running.url.replace(/\/\/(0\.0\.0\.0|\[::\])(?=:)/, '//localhost');
}

/** Where the data lives: the data directory, or PostgreSQL by host and database (never the user or password). */
export function dataLocation(config: Config): string {
  if (!config.databaseUrl) return resolve(config.dataDir);
  const db = new URL(config.databaseUrl);
  return `PostgreSQL at ${db.host}${db.pathname.length > 1 ? db.pathname : ''}`;
}

/** The start-up summary: a first line, then one aligned line per fact. */
export function startupSummary(config: Config, running: Listening): string {
  const url = localUrl(running);
  const rows: [string, string][] = [
    ['API docs', `${url}/docs`],
    [config.databaseUrl ? 'database' : 'data', dataLocation(config)],
    ['sandbox', config.sandbox ? 'on: every network is simulated, no real accounts needed (docs/sandbox.md)' : 'off'],
    [
      'mail',
      config.smtpUrl
        ? 'sent over SMTP'
        : 'not configured: nothing is mailed; invitations, password resets and notifications wait in the outbox (`herald mail outbox`, GET /admin/mail/outbox; set HERALD_SMTP_URL)',
    ],
    [
      'sign-up',
      config.signup === 'open'
        ? 'open to anyone who can reach this server (HERALD_SIGNUP=invite: by invitation only)'
        : 'by invitation only (the first account is always admitted)',
    ],
  ];
  if (running.metricsUrl) rows.push(['metrics', running.metricsUrl]);
  if (!config.publicUrl.startsWith('https:') && publicUrlIsLocal(config)) {
    rows.push(['ChatGPT', `needs an https HERALD_PUBLIC_URL to reach this server (docs/gpt-actions.md)`]);
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  return [`Herald is ready: open ${url}`, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)].join('\n');
}

function publicUrlIsLocal(config: Config): boolean {
  return LOOPBACK_HOST.test(new URL(config.publicUrl).hostname.replace(/^(?!\[)(.*:.*)$/, '[$1]'));
}

/** Settings worth a warning at start-up, one line each. */
export function startupWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (!config.publicUrl.startsWith('https:') && !publicUrlIsLocal(config)) {
    warnings.push(
      `HERALD_PUBLIC_URL is ${config.publicUrl}, not https: ChatGPT (GPT Actions and connectors) and other chat assistants only sign in to https servers, and the OAuth metadata and /openapi/chatgpt-actions.json advertise this address (docs/gpt-actions.md)`,
    );
  }
  if (config.sandbox && config.sandboxControl === 'any') {
    warnings.push(
      'HERALD_SANDBOX_CONTROL=any: anyone who can reach this server can read every simulated token at /sandbox/_state and arm faults',
    );
  }
  return warnings;
}
