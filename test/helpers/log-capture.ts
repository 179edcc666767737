// A real Herald logger (createLogger: redaction and serializers included) writing into memory.
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../src/context.ts';
import type { Config } from '../../src/config.ts';

export function captureLogs(level: Config['logLevel']): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { logger: createLogger({ logLevel: level }, sink), lines };
}
