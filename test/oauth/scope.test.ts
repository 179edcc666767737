// `scope` is optional in OAuth: an authorization request without one, or with any mix of Herald's scopes,
// completes the sign-in and gives a token for the API (Herald's scope is what choosing a workspace grants).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { CHATGPT_CALLBACK, exchange, pkce, register, signInAndAuthorize } from './helpers.ts';

let h: Harness;
let user: TestUser;
const GPT_SECRET = 'gpt-secret-0123456789abcdefghijklmnopqrstuvwxyz';
beforeAll(async () => {
  h = await createHarness({
    env: {
      HERALD_OAUTH_CLIENTS: JSON.stringify([
        { client_id: 'gpt', client_secret: GPT_SECRET, redirect_uris: [CHATGPT_CALLBACK] },
      ]),
    },
  });
  await h.signup();
  user = await h.signup();
});
afterAll(async () => h?.close());

const usage = (token: string) =>
  h.req({ method: 'GET', url: '/billing/usage', headers: { authorization: `Bearer ${token}` } });

describe('the scope of an authorization request', () => {
  for (const scope of [
    null,
    '',
    'herald',
    'offline_access',
    'openid',
    'openid offline_access',
    'herald offline_access',
    'openid offline_access herald',
  ]) {
    it(`${JSON.stringify(scope)}: signs in, exchanges the code and calls the API`, async () => {
      const client = await register(h);
      const { verifier, challenge } = pkce();
      const back = await signInAndAuthorize(h, user, { clientId: client.client_id, challenge, scope });
      expect(back.searchParams.get('error'), back.search).toBeNull();
      const res = await exchange(h, {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: CHATGPT_CALLBACK,
        client_id: client.client_id,
        code_verifier: verifier,
      });
      expect(res.statusCode, res.body).toBe(200);
      const tokens = res.json();
      expect(String(tokens.scope).split(' ')).toContain('herald');
      expect((await usage(tokens.access_token)).statusCode).toBe(200);
      // Connectors keep working: a refresh token whatever the scope.
      expect(
        (
          await exchange(h, {
            grant_type: 'refresh_token',
            refresh_token: tokens.refresh_token,
            client_id: client.client_id,
          })
        ).statusCode,
      ).toBe(200);
    });
  }

  it('a client registered with a scope gets it when it asks for none', async () => {
    const client = await register(h, { scope: 'herald offline_access' });
    const { verifier, challenge } = pkce();
    const back = await signInAndAuthorize(h, user, { clientId: client.client_id, challenge, scope: null });
    const res = await exchange(h, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: CHATGPT_CALLBACK,
      client_id: client.client_id,
      code_verifier: verifier,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.json().scope).split(' ')).toContain('herald');
    expect(res.json().refresh_token).toBeTruthy();
  });

  it('an operator client (GPT Actions) configured without a scope signs in with none', async () => {
    const back = await signInAndAuthorize(h, user, { clientId: 'gpt', scope: null });
    const res = await exchange(h, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: CHATGPT_CALLBACK,
      client_id: 'gpt',
      client_secret: GPT_SECRET,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await usage(res.json().access_token)).statusCode).toBe(200);
  });
});
