// Herald's logger: pino with credentials redacted, request URLs scrubbed, and database errors logged
// without their query parameters. JSON lines, or readable ones on a terminal (HERALD_LOG_FORMAT).
import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';
import { logSafeError } from './db/log-safe.ts';

/** Paths redacted from every log line: credentials must never be written out. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'req.query.apikey',
  'req.query.api_key',
  '*.password',
  '*.current_password',
  '*.new_password',
  '*.app_password',
  '*.token',
  '*.invitation_token',
  '*.secret',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
];

const REDACTED = '[redacted]';

// Query parameters that carry credentials, by name: Herald's own (an API key sent as `?x-api-key=`, `?key=`), OAuth's
// (`code`, `state`, `client_secret`, `code_verifier`) and every `…_token` the networks' token endpoints take.
const SECRET_QUERY =
  /([?&](?:x-api-key|api[-_]?key|key|[\w.-]*token|client_secret|secret|code|code_verifier|state|app_password|password|client_assertion|assertion)=)[^&#]*/gi;

// Credentials by their look, wherever they appear in a line (a path, a header, a message): Herald's API keys
// (KEY_PREFIX in src/auth/api-keys.ts) and JWTs (Herald's sessions and OAuth access tokens).
const SECRET_VALUES: [RegExp, string][] = [
  [/(psk_live_)[A-Za-z0-9_-]+/g, `$1${REDACTED}`],
  [/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, REDACTED],
];

/** `text` with every credential-looking value replaced (an API key keeps its prefix, to say what it was). */
export function redactSecretValues(text: string): string {
  return SECRET_VALUES.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** Request URLs are logged without the values of credential-bearing query parameters, nor credential-looking values. */
export const scrubUrl = (url: string) => redactSecretValues(url.replace(SECRET_QUERY, `$1${REDACTED}`));

type LogSettings = Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>;

/** Whether lines are written for people (pino-pretty) or as JSON: `auto` is readable on a terminal only. */
export function readableLogs(
  format: Config['logFormat'] = 'auto',
  stdoutIsTerminal = Boolean(process.stdout.isTTY),
): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTerminal);
}

// Request lines and the start-up summary say everything in their message: pretty output leaves their fields out
// (and shows the request id).
const PRETTY_HIDDEN = 'pid,hostname,reqId,req,res,responseTime,startup';

/** pino-pretty as a stream in this process (no worker thread), loaded only when readable lines are asked for. */
function prettyStream(destination: pino.DestinationStream | undefined): pino.DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  const colorize = destination === undefined && Boolean(process.stdout.isTTY);
  return pretty({
    colorize,
    translateTime: 'SYS:HH:MM:ss',
    ignore: PRETTY_HIDDEN,
    singleLine: true,
    messageFormat: (log, key) =>
      `${String(log[key] ?? '')}${typeof log.reqId === 'string' ? ` (request ${log.reqId})` : ''}`,
    ...(destination ? { destination } : { destination: 1, sync: true }),
  });
}

export function createLogger(config: LogSettings, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    // The last line of defence: whatever a line carries (a header, an error message), no key or token leaves.
    hooks: { streamWrite: redactSecretValues },
    serializers: {
      // Database errors carry query parameters (hashes, tokens); they are logged without them.
      err: (err: unknown) => pino.stdSerializers.err(logSafeError(err) as Error),
      req: (req: { method: string; url: string; hostname?: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: scrubUrl(req.url),
        host: req.hostname,
        remoteAddress: req.ip,
      }),
    },
  };
  // A destination given by the caller (tests) gets pretty lines only when asked for explicitly.
  const pretty = destination ? config.logFormat === 'pretty' : readableLogs(config.logFormat);
  if (pretty) return pino(options, prettyStream(destination));
  return destination ? pino(options, destination) : pino(options);
}
