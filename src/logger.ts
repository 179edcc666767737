// Herald's logger: pino with credentials redacted, request URLs scrubbed, and database errors logged
// without their query parameters. JSON lines, or readable ones on a terminal (HERALD_LOG_FORMAT).
import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';
import { logSafeError } from './db/log-safe.ts';

/** Paths redacted from every log line: credentials must never be written out. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.query.apikey',
  'req.query.api_key',
  '*.password',
  '*.current_password',
  '*.new_password',
  '*.app_password',
  '*.token',
  '*.invitation_token',
  '*.secret',
  '*.access_token',
  '*.refresh_token',
];

const SECRET_QUERY = /([?&](?:api[-_]?key|access_token|token|code|state|app_password)=)[^&#]*/gi;

/** Request URLs are logged without the values of credential-bearing query parameters. */
export const scrubUrl = (url: string) => url.replace(SECRET_QUERY, '$1[redacted]');

type LogSettings = Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>;

/** Whether lines are written for people (pino-pretty) or as JSON: `auto` is readable on a terminal only. */
export function readableLogs(format: Config['logFormat'] = 'auto', stdoutIsTerminal = Boolean(process.stdout.isTTY)): boolean {
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
    messageFormat: (log, key) => `${String(log[key] ?? '')}${typeof log.reqId === 'string' ? ` (request ${log.reqId})` : ''}`,
    ...(destination ? { destination } : { destination: 1, sync: true }),
  });
}

export function createLogger(config: LogSettings, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
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
