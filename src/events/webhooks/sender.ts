// One HTTP attempt of a delivery: a POST through the outbound address policy (the destination is resolved and checked
// when the connection opens, so an endpoint whose name later points at a private address is refused then), no
// redirect followed (a 3xx is a failed attempt), a hard timeout, and only the first bytes of the answer kept.
import { request, type Agent } from 'undici';
import { refusalIn, type OutboundPolicy } from '../../net/outbound-policy.ts';
import type { Clock } from '../../clock.ts';
import type { SignedHeaders } from './signing.ts';
import { parseRetryAfter } from './schedule.ts';

/** How much of a receiver's answer the delivery log keeps. */
export const RESPONSE_BYTES = 1024;

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  /** The first bytes of the answer's body. */
  response: string | null;
  /** Why it failed, in words (no address or secret in it). */
  error: string | null;
  durationMs: number;
  retryAfterMs: number | undefined;
  /** 410 Gone: the receiver asks for no more deliveries. */
  gone: boolean;
}

/** An attempt that failed before any request was made (e.g. a secret that no longer decrypts). */
export const failedBeforeSending = (error: string): AttemptResult => ({
  ok: false,
  statusCode: null,
  response: null,
  error,
  durationMs: 0,
  retryAfterMs: undefined,
  gone: false,
});

export class WebhookSender {
  readonly #agent: Agent;
  readonly #timeoutMs: number;
  readonly #clock: Clock;

  constructor(opts: { policy: OutboundPolicy; timeoutMs: number; clock: Clock }) {
    this.#agent = opts.policy.agent({ timeoutMs: opts.timeoutMs });
    this.#timeoutMs = opts.timeoutMs;
    this.#clock = opts.clock;
  }

  async send(url: string, headers: SignedHeaders, body: string, signal?: AbortSignal): Promise<AttemptResult> {
    const started = performance.now();
    const duration = () => Math.round(performance.now() - started);
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const abort = signal ? AbortSignal.any([timeout, signal]) : timeout;
    const failed = (error: string): AttemptResult => ({ ...failedBeforeSending(error), durationMs: duration() });
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(url, {
        method: 'POST',
        dispatcher: this.#agent,
        signal: abort,
        headers: { 'content-type': 'application/json', 'user-agent': 'Herald-Webhooks/1', ...headers },
        body,
      });
    } catch (err) {
      if (timeout.aborted) return failed(`no answer within ${this.#timeoutMs / 1000} s`);
      const refusal = refusalIn(err);
      if (refusal) return failed(`refused by the outbound address policy: ${refusal.message}`);
      return failed(`could not connect (${(err as { code?: string }).code ?? (err as Error).message})`);
    }
    let response: string;
    try {
      response = await firstBytes(res.body, RESPONSE_BYTES);
    } catch {
      response = '';
    }
    const status = res.statusCode;
    const retryAfter = res.headers['retry-after'];
    const ok = status >= 200 && status <= 299;
    return {
      ok,
      statusCode: status,
      response,
      error: ok
        ? null
        : status >= 300 && status <= 399
          ? `redirect (${status}): redirects are not followed`
          : `the endpoint answered ${status}`,
      durationMs: duration(),
      retryAfterMs: parseRetryAfter(
        Array.isArray(retryAfter) ? (retryAfter[0] ?? null) : (retryAfter ?? null),
        this.#clock(),
      ),
      gone: status === 410,
    };
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

/** Reads up to `max` bytes of a body as text, then drops the rest. */
async function firstBytes(body: AsyncIterable<Buffer> & { destroy(): unknown }, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= max) break;
  }
  body.destroy();
  return Buffer.concat(chunks)
    .subarray(0, max)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
}
