// The retry schedule (the Standard Webhooks one by default, with ±10 % jitter, never before Retry-After) and the
// signing of one attempt, checked against the `standardwebhooks` package's own verification.
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { DEFAULT_RETRY_SECONDS } from '../../src/config/webhooks.ts';
import { nextAttemptAt, parseRetryAfter } from '../../src/events/webhooks/schedule.ts';
import { newSigningSecret, signDelivery } from '../../src/events/webhooks/signing.ts';

const now = new Date('2026-11-27T12:00:00Z');
const delayOf = (attempts: number, random: () => number, retryAfterMs?: number) =>
  (nextAttemptAt(DEFAULT_RETRY_SECONDS, attempts, now, retryAfterMs, random)?.getTime() ?? Number.NaN) - now.getTime();

describe('retry schedule', () => {
  it('follows the spec: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then gives up', () => {
    const hours = (h: number) => h * 3600_000;
    expect(Array.from({ length: 9 }, (_, i) => delayOf(i + 1, () => 0.5))).toEqual([
      5000,
      300_000,
      1_800_000,
      hours(2),
      hours(5),
      hours(10),
      hours(14),
      hours(20),
      hours(24),
    ]);
    expect(nextAttemptAt(DEFAULT_RETRY_SECONDS, 10, now)).toBeNull();
  });

  it('jitters each delay by at most a tenth', () => {
    expect(delayOf(2, () => 0)).toBe(270_000);
    expect(delayOf(2, () => 1)).toBe(330_000);
  });

  it('waits at least as long as Retry-After (capped at a day)', () => {
    expect(delayOf(1, () => 0.5, 60_000)).toBe(60_000);
    expect(delayOf(1, () => 0.5, 1000)).toBe(5000);
    expect(delayOf(1, () => 0.5, 10 * 86_400_000)).toBe(86_400_000);
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Fri, 27 Nov 2026 12:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('signing', () => {
  it('signs id.timestamp.body with each secret, and a receiver with either verifies it', () => {
    const [a, b] = [newSigningSecret(), newSigningSecret()];
    const body = JSON.stringify({ type: 'post.published', data: { n: 1 } });
    const headers = signDelivery([a, b], 'msg_1', new Date(), body);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    for (const s of [a, b]) expect(new Webhook(s).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, { ...headers })).toThrow();
    expect(() => new Webhook(a).verify(`${body} `, { ...headers })).toThrow();
  });
});
