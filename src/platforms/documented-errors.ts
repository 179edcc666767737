// The errors each network documents for the operations Herald uses, as data beside its adapter
// (`<network>/documented-errors.ts`): what the network means, how Herald reads it, what the user is told, and how the
// sandbox produces it. The adapter's error mapping takes its overrides from this data; a table-driven test injects each
// simulated error over real HTTP and checks the adapter's answer against it; docs/networks.md shows it.
import type { PlatformErrorKind } from './types.ts';
import { PlatformError } from './types.ts';
import type { Platform } from './slugs.ts';

/** How the sandbox produces the error: a fault armed on an operation (`POST /sandbox/_faults`). */
export interface SimulatedBy {
  operation: string;
  fault: 'rate_limit' | 'server_error' | 'expire_token' | 'revoke' | 'error';
  /** For `fault: "error"`: the simulator's name of the documented error. */
  error?: string;
}

/** Why the sandbox cannot produce it, and the answer the mapping test feeds the adapter's error mapping instead. */
export interface NotSimulated {
  reason: string;
  status: number;
  body: unknown;
}

export interface DocumentedError {
  /** The network's code as its documentation names it: `4/2207051`, `spam_risk_text`, `403 quotaExceeded`. */
  code: string;
  /** What the network says it means. */
  meaning: string;
  kind: PlatformErrorKind;
  /** What Herald does next, in a few words ("retried", "new container", "not retried", "after 24 h"). */
  retry: string;
  /** The wait Herald gives a rate-limited error when the network's answer names none. */
  retryAfterSeconds?: number;
  /** What the user is told: the start of the error's message. Absent: the shared mapping's message stands. */
  words?: string;
  /**
   * A state of the account rather than of the post or the grant (a publishing gate, a restriction, a ban): every post
   * fails until the owner acts at the network. Publishing notes the words on the connection (`status_reason`, the
   * connection status) until a later publish to it succeeds; the connection stays connected.
   */
  account?: true;
  /** The adapter operation the mapping test runs (default `publish`). */
  via?: string;
  /** Not an error to Herald: the operation ends in this state instead (a race with processing, a shortcut). */
  outcome?: 'processing' | 'published';
  simulated: SimulatedBy | NotSimulated;
}

export const isSimulated = (d: DocumentedError): d is DocumentedError & { simulated: SimulatedBy } =>
  'operation' in d.simulated;

/**
 * The error as the documented entry for the first of `codes` the table has says: its kind, its wait when the answer
 * named none, and its words before the mapped message (with the entry's code then). What the mapping read from the
 * answer stays (status, the network's text, a Retry-After the network sent). `mapped` stands when no entry matches.
 */
export function documentedError(
  table: readonly DocumentedError[],
  codes: string | readonly string[],
  mapped: PlatformError,
): PlatformError {
  const keys = typeof codes === 'string' ? [codes] : codes;
  const entry = keys.map((k) => table.find((d) => d.code === k)).find((d) => d !== undefined);
  if (!entry || (entry.kind === mapped.kind && entry.words === undefined && !entry.account)) return mapped;
  const retryAfter = entry.kind === 'rate_limited' ? (mapped.retryAfterSeconds ?? entry.retryAfterSeconds) : undefined;
  const code = entry.words !== undefined ? entry.code : mapped.code;
  return new PlatformError(
    mapped.platform,
    entry.kind,
    entry.words !== undefined ? `${entry.words} (${mapped.message})` : mapped.message,
    {
      ...(mapped.status !== undefined ? { status: mapped.status } : {}),
      ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
      ...(code !== undefined ? { code } : {}),
      ...(entry.account ? { accountCondition: true } : {}),
    },
  );
}

/** The codes of a table whose documented cure is a new container (or upload): the old one is never used again. */
export function renewingCodes(table: readonly DocumentedError[]): ReadonlySet<string> {
  return new Set(table.filter((d) => d.retry === 'new container').map((d) => d.code));
}

/** The Markdown table of one network's documented errors, as docs/networks.md shows it. */
export function documentedTable(platform: Platform, table: readonly DocumentedError[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const rows = table.map((d) => {
    const s = d.simulated;
    const sim =
      'operation' in s
        ? `\`${s.operation}\` \`${s.fault === 'error' ? (s.error ?? '') : s.fault}\``
        : `not simulated: ${s.reason}`;
    const retry = d.retryAfterSeconds !== undefined ? `${d.retry} (${d.retryAfterSeconds} s)` : d.retry;
    const kind = d.outcome ? `none: ${d.outcome}` : `\`${d.kind}\`${d.account ? ', account' : ''}`;
    return `| \`${cell(d.code)}\` | ${cell(d.meaning)} | ${kind} | ${cell(retry)} | ${cell(d.words ?? '')} | ${cell(sim)} |`;
  });
  return [
    `<!-- documented-errors:${platform} (generated from src/platforms/${platform}/documented-errors.ts) -->`,
    '| code | meaning | kind | retry | user is told | sandbox |',
    '|---|---|---|---|---|---|',
    ...rows,
    `<!-- /documented-errors:${platform} -->`,
  ].join('\n');
}
