// credits.low: written with the spend that brings a period's balance under a tenth of the plan's limit, once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('credits.low', () => {
  it('is written once, by the spend that crosses the mark, with the figures', async () => {
    const u = await h.signup();
    await h.setPlan(u.workspaceId, 'free'); // 5 posts a month: the mark is 1 left
    const spend = () =>
      h.ctx.credits.spend({ workspaceId: u.workspaceId, planId: 'free', type: 'posts', amount: 1, reason: 'test' });
    const low = async () =>
      (await h.req({ method: 'GET', url: '/events?type=credits.low', headers: asUser(u) })).json().events as {
        data: Record<string, unknown>;
      }[];
    for (let i = 0; i < 3; i++) await spend();
    expect(await low()).toEqual([]);
    await spend();
    await spend();
    await expect(spend()).rejects.toMatchObject({ status: 402 });
    const evs = await low();
    expect(evs).toHaveLength(1);
    expect(evs[0]!.data).toMatchObject({ credit_type: 'posts', used: 4, limit: 5, remaining: 1 });
  });
});
