// Answers given before the request body was read in full: 401 or 503 before an upload is looked at, 413 on a
// declared length or midway through a file, a 422 on the first bad form field. Closing the connection while the
// client is still sending makes the kernel reset it, and a client (Node's fetch among them) may then report the
// reset instead of the answer. So the rest of the body is read and thrown away before the answer goes out, up to
// EARLY_ANSWER_DRAIN_BYTES; only a larger body gets its answer with `Connection: close` and no such promise.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The most of a refused body Herald reads (and discards) so that its client gets the answer. */
export const EARLY_ANSWER_DRAIN_BYTES = 32 * 1024 * 1024;

/** Reads the rest of `raw` into nothing; false when it ends early or would exceed `max` bytes. */
function drain(raw: IncomingMessage, max: number): Promise<boolean> {
  return new Promise((resolve) => {
    let read = 0;
    const settle = (drained: boolean) => {
      raw.off('data', onData).off('end', onEnd).off('error', onFailure).off('close', onClose);
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > max) settle(false);
    };
    const onEnd = () => settle(true);
    const onFailure = () => settle(false);
    const onClose = () => settle(raw.complete);
    // A form parser may still be attached: the rest goes nowhere now.
    raw.unpipe();
    raw.on('data', onData).on('end', onEnd).on('error', onFailure).on('close', onClose);
    raw.resume();
  });
}

export function installEarlyAnswers(app: FastifyInstance, max = EARLY_ANSWER_DRAIN_BYTES): void {
  app.addHook('onSend', async (req, reply) => {
    const raw = req.raw;
    if (raw.complete || raw.readableEnded || raw.destroyed) return;
    const declared = Number(raw.headers['content-length']);
    const drained = declared > max ? false : await drain(raw, max);
    if (!drained) reply.header('connection', 'close');
  });
}
