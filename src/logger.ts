// Herald's logger: pino with credentials redacted, request URLs scrubbed, and database errors logged
// without their query parameters.
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

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
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
  return destination ? pino(options, destination) : pino(options);
}
