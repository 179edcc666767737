// One log line per request, written when the answer has gone: method, URL (credentials scrubbed), status,
// duration and the request id, in place of Fastify's two ("incoming request", "request completed").
// HERALD_LOG_REQUESTS: every request, only 4xx/5xx answers (and failed responses), or none.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { scrubUrl } from '../../logger.ts';

export class RequestLog extends LogController {
  readonly #mode: Config['logRequests'];

  constructor(mode: Config['logRequests']) {
    super();
    this.#mode = mode;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    if (this.#mode === 'off' || (this.#mode === 'errors' && status < 400 && !error)) return;
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const msg = `${req.method} ${scrubUrl(req.url)} ${status} ${ms} ms`;
    const line = { req, res: { statusCode: status }, responseTime: ms, ...(error ? { err: error } : {}) };
    // A 5xx has its error logged where it was handled (errors.ts); the request line stays at info.
    if (error) reply.log.error(line, `${msg} (the response failed)`);
    else reply.log.info(line, msg);
  }
}
