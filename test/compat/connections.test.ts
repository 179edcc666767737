// GET /unified/oauth/token carries `connected` beside `success` (the setup guide reads it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true });
});
afterAll(() => h?.close());

describe('GET /unified/oauth/token', () => {
  it('answers connected: true for a connected network and connected: false for the others', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    const res = await h.req({
      method: 'GET',
      url: '/unified/oauth/token?platform=bluesky&platform=linkedin',
      headers: asUser(u),
    });
    expect(res.statusCode, res.body).toBe(200);
    const { results } = res.json();
    expect(results.bluesky).toMatchObject({ success: true, connected: true, message: expect.any(String) });
    expect(results.linkedin).toEqual({
      success: false,
      connected: false,
      message: 'LinkedIn not connected for this workspace.',
    });
    const all = (await h.req({ method: 'GET', url: '/unified/oauth/token', headers: asUser(u) })).json()
      .results as Record<string, { success: boolean; connected: boolean }>;
    for (const [p, r] of Object.entries(all)) expect(r.connected, p).toBe(r.success);
  });
});
