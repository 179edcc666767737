// The authorization server metadata (RFC 8414 and OpenID discovery) advertises only what Herald serves:
// every endpoint answers, and the client authentication methods and features listed are the served ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.ts';
import { CHATGPT_CALLBACK } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const DOCUMENTS = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];
/** How each advertised endpoint is called. */
const METHODS: Record<string, 'GET' | 'POST'> = {
  authorization_endpoint: 'GET',
  token_endpoint: 'POST',
  registration_endpoint: 'POST',
  revocation_endpoint: 'POST',
  jwks_uri: 'GET',
};

describe('authorization server metadata', () => {
  for (const doc of DOCUMENTS) {
    it(`${doc}: every endpoint it names answers (none is a 404)`, async () => {
      const m = (await h.req({ method: 'GET', url: doc })).json() as Record<string, unknown>;
      const endpoints = Object.keys(m).filter((k) => /(_endpoint|_uri)$/.test(k) && typeof m[k] === 'string');
      expect(endpoints.sort()).toEqual(Object.keys(METHODS).sort());
      for (const key of endpoints) {
        const url = new URL(String(m[key]));
        expect(url.origin, key).toBe(h.url);
        const res = await h.req({
          method: METHODS[key]!,
          url: url.pathname,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: METHODS[key] === 'POST' ? '' : undefined,
        });
        expect(res.statusCode, `${key} ${url.pathname}`).not.toBe(404);
      }
    });

    it(`${doc}: advertises the client authentication Herald serves, and no PAR, DPoP or JWT assertions`, async () => {
      const m = (await h.req({ method: 'GET', url: doc })).json() as Record<string, unknown>;
      expect((m.token_endpoint_auth_methods_supported as string[]).sort()).toEqual([
        'client_secret_basic',
        'client_secret_post',
        'none',
      ]);
      for (const key of [
        'pushed_authorization_request_endpoint',
        'require_pushed_authorization_requests',
        'dpop_signing_alg_values_supported',
        'token_endpoint_auth_signing_alg_values_supported',
        'introspection_endpoint',
        'userinfo_endpoint',
        'end_session_endpoint',
      ]) {
        expect(m, key).not.toHaveProperty(key);
      }
      expect(m.code_challenge_methods_supported).toEqual(['S256']);
    });
  }

  it('each advertised method registers; an unadvertised one is refused', async () => {
    const m = (await h.req({ method: 'GET', url: DOCUMENTS[0]! })).json() as {
      token_endpoint_auth_methods_supported: string[];
    };
    for (const method of m.token_endpoint_auth_methods_supported) {
      const res = await h.req({
        method: 'POST',
        url: '/auth/oauth/register',
        payload: { redirect_uris: [CHATGPT_CALLBACK], token_endpoint_auth_method: method },
      });
      expect(res.statusCode, `${method}: ${res.body}`).toBe(201);
    }
    for (const method of ['private_key_jwt', 'client_secret_jwt', 'tls_client_auth']) {
      const res = await h.req({
        method: 'POST',
        url: '/auth/oauth/register',
        payload: { redirect_uris: [CHATGPT_CALLBACK], token_endpoint_auth_method: method },
      });
      expect(res.statusCode, method).toBe(400);
      expect(res.json().error).toBe('invalid_client_metadata');
    }
  });
});
