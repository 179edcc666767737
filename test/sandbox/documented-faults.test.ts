// `POST /_faults {"fault": "error", "error": <name>}`: a network's documented error, answered by the next call of the
// operation exactly as the catalogue (src/sandbox/<network>/errors.ts) holds it; unknown names are refused.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INSTAGRAM_ERRORS } from '../../src/sandbox/instagram/errors.ts';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('sandbox: documented-error faults', () => {
  it('answers the next call of the operation with the documented body, once', async () => {
    const armed = await sb.control('POST', '_faults', {
      platform: 'instagram',
      operation: 'publish',
      fault: 'error',
      error: 'account_restricted',
    });
    expect(armed.status).toBe(201);
    expect(await armed.json()).toMatchObject({ fault: { fault: 'error', error: 'account_restricted', remaining: 1 } });
    const first = await fetch(sb.url('instagram', '/v24.0/me/media_publish?creation_id=1'), { method: 'POST' });
    expect(first.status).toBe(400);
    expect(await first.json()).toMatchObject({ error: { code: 25, error_subcode: 2207050, type: 'OAuthException' } });
    // Spent: the next call gets the simulator's own answer (no token: 104).
    const second = await fetch(sb.url('instagram', '/v24.0/me/media_publish?creation_id=1'), { method: 'POST' });
    expect(((await second.json()) as { error: { code: number } }).error.code).toBe(104);
  });

  it("lists each network's documented errors and refuses unknown or misplaced names", async () => {
    const listed = (await (await sb.control('GET', '_faults')).json()) as { errors: Record<string, string[]> };
    expect(listed.errors.instagram).toEqual(Object.keys(INSTAGRAM_ERRORS).sort());
    for (const body of [
      { platform: 'instagram', operation: 'publish', fault: 'error', error: 'no_such_error' },
      { platform: 'instagram', operation: 'publish', fault: 'error' },
      { platform: 'instagram', operation: 'publish', fault: 'rate_limit', error: 'account_restricted' },
    ]) {
      const res = await sb.control('POST', '_faults', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    }
  });
});
