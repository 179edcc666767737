// Dynamic client registration, bounded: what a client may register (redirect URIs, authentication
// methods, metadata sizes), how many registrations an address and the instance may make, and the
// removal of clients that never completed an authorization.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { and, eq, inArray } from '../../src/db/orm.ts';
import { oauthEntities } from '../../src/db/schema-oauth.ts';
import { CHATGPT_CALLBACK, exchange, pkce, register, signInAndAuthorize } from './helpers.ts';

let h: Harness;
let user: TestUser;
let now = Date.now();
beforeAll(async () => {
  h = await createHarness({
    clock: () => new Date(now),
    env: { HERALD_OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR: '3', HERALD_OAUTH_PENDING_CLIENTS_MAX: '7' },
  });
  await h.signup();
  user = await h.signup();
});
afterAll(async () => h?.close());

let addresses = 0;
/** A registration from an address of its own, so the per-address cap is not what answers. */
const registerFrom = (payload: Record<string, unknown>, remoteAddress = `198.51.100.${++addresses}`) =>
  h.req({
    method: 'POST',
    url: '/auth/oauth/register',
    remoteAddress,
    payload: { token_endpoint_auth_method: 'none', ...payload },
  });

async function refused(payload: Record<string, unknown>, error = 'invalid_client_metadata'): Promise<string> {
  const res = await registerFrom(payload);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().error, res.body).toBe(error);
  return String(res.json().error_description);
}

const clientRow = async (id: string) =>
  (
    await h.ctx.database.db
      .select()
      .from(oauthEntities)
      .where(and(eq(oauthEntities.model, 'Client'), eq(oauthEntities.id, id)))
  )[0];
/** Forgets the registrations so far: the caps start afresh. */
const clear = () =>
  h.ctx.database.db.delete(oauthEntities).where(inArray(oauthEntities.model, ['RegistrationAttempt', 'Client']));

describe('redirect URIs', () => {
  it('refuses plain http on a host that is not loopback, and takes https and loopback http', async () => {
    for (const uri of [
      'http://chatgpt.com/aip/g-1/oauth/callback',
      'http://192.168.1.10/cb',
      'http://localhost.evil.example/cb',
      'http://127.0.0.1.nip.io/cb',
    ]) {
      expect(await refused({ redirect_uris: [uri] }, 'invalid_redirect_uri'), uri).toContain('https');
    }
    for (const uri of [
      CHATGPT_CALLBACK,
      'https://chatgpt.com/connector_platform_oauth_redirect',
      'https://claude.ai/api/mcp/auth_callback',
      'http://localhost:6274/oauth/callback',
      'http://127.0.0.1:33418/callback',
      'http://[::1]:8080/cb',
    ]) {
      const res = await registerFrom({ redirect_uris: [uri] });
      expect(res.statusCode, `${uri}: ${res.body}`).toBe(201);
    }
    await clear();
  });

  it('limits how many and how long', async () => {
    const many = Array.from({ length: 11 }, (_, i) => `https://app.example/cb/${i}`);
    expect(await refused({ redirect_uris: many }, 'invalid_redirect_uri')).toBe(
      'redirect_uris must have at most 10 entries',
    );
    expect(await refused({ redirect_uris: [`https://app.example/${'a'.repeat(1000)}`] }, 'invalid_redirect_uri')).toBe(
      'redirect_uris entries must be at most 1000 characters',
    );
  });
});

describe('client authentication', () => {
  it('refuses key-based client authentication and client keys: the token endpoint never fetches a jwks_uri', async () => {
    const jwksUri = 'https://keys.example/jwks.json';
    expect(
      await refused({
        redirect_uris: [CHATGPT_CALLBACK],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks_uri: jwksUri,
      }),
    ).toContain('jwks_uri');
    expect(
      await refused({ redirect_uris: [CHATGPT_CALLBACK], token_endpoint_auth_method: 'private_key_jwt' }),
    ).toContain('token_endpoint_auth_method');
    expect(
      await refused({ redirect_uris: [CHATGPT_CALLBACK], token_endpoint_auth_method: 'client_secret_jwt' }),
    ).toContain('token_endpoint_auth_method');
    expect(await refused({ redirect_uris: [CHATGPT_CALLBACK], jwks: { keys: [] } })).toContain('jwks');
    expect(
      await refused({ redirect_uris: [CHATGPT_CALLBACK], sector_identifier_uri: 'https://keys.example/sector.json' }),
    ).toContain('sector_identifier_uri');
  });

  it('takes public clients and clients with a secret (body or Basic header)', async () => {
    for (const method of ['none', 'client_secret_post', 'client_secret_basic']) {
      const res = await registerFrom({ redirect_uris: [CHATGPT_CALLBACK], token_endpoint_auth_method: method });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().token_endpoint_auth_method).toBe(method);
      expect(Boolean(res.json().client_secret)).toBe(method !== 'none');
    }
    await clear();
  });
});

describe('metadata sizes', () => {
  it('limits names, URIs, contacts and the whole document, naming what is too long', async () => {
    const cb = { redirect_uris: [CHATGPT_CALLBACK] };
    expect(await refused({ ...cb, client_name: 'n'.repeat(201) })).toBe('client_name must be at most 200 characters');
    expect(await refused({ ...cb, logo_uri: `https://app.example/${'l'.repeat(1000)}` })).toBe(
      'logo_uri must be at most 1000 characters',
    );
    expect(await refused({ ...cb, client_uri: `https://app.example/${'c'.repeat(1000)}` })).toBe(
      'client_uri must be at most 1000 characters',
    );
    expect(await refused({ ...cb, contacts: Array.from({ length: 6 }, (_, i) => `a${i}@example.test`) })).toContain(
      'contacts must have at most 5',
    );
    // ~55 KB of metadata in fields the provider knows but Herald does not bound one by one.
    expect(
      await refused({ ...cb, default_acr_values: Array.from({ length: 3000 }, (_, i) => `acr-value-${i}`) }),
    ).toContain('16384 characters');
    const ok = await registerFrom({ ...cb, client_name: 'n'.repeat(200) });
    expect(ok.statusCode, ok.body).toBe(201);
    await clear();
  });
});

describe('registration caps', () => {
  it('caps registrations per address an hour, then the clients pending overall; a used client frees its place', async () => {
    await clear();
    const a = '203.0.113.7';
    const ids: string[] = [];
    // A refused registration creates nothing and counts for nothing.
    expect((await registerFrom({ redirect_uris: ['http://app.example/cb'] }, a)).statusCode).toBe(400);
    for (let i = 0; i < 3; i++) {
      const res = await registerFrom({ redirect_uris: [CHATGPT_CALLBACK] }, a);
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().client_id);
    }
    const fourth = await registerFrom({ redirect_uris: [CHATGPT_CALLBACK] }, a);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ error: 'temporarily_unavailable' });
    expect(fourth.json().error_description).toContain('this address');
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(3000);
    expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(3600);
    // The same /64 is the same address.
    expect((await registerFrom({ redirect_uris: [CHATGPT_CALLBACK] }, '2001:db8:1:2::1')).statusCode).toBe(201);
    expect((await registerFrom({ redirect_uris: [CHATGPT_CALLBACK] }, '2001:db8:1:2::1')).statusCode).toBe(201);
    expect((await registerFrom({ redirect_uris: [CHATGPT_CALLBACK] }, '2001:db8:1:2:ffff::9')).statusCode).toBe(201);
    expect((await registerFrom({ redirect_uris: [CHATGPT_CALLBACK] }, '2001:db8:1:2:abcd::1')).statusCode).toBe(429);

    // Six clients are pending; the cap (7) is reached from any address.
    for (let i = 0; i < 1; i++)
      expect((await registerFrom({ redirect_uris: [CHATGPT_CALLBACK] })).statusCode).toBe(201);
    const full = await registerFrom({ redirect_uris: [CHATGPT_CALLBACK] });
    expect(full.statusCode).toBe(429);
    expect(full.json().error_description).toContain('not yet used');

    // A client that completes an authorization is no longer pending.
    const { verifier, challenge } = pkce();
    const back = await signInAndAuthorize(h, user, { clientId: ids[0]!, challenge });
    const tokens = await exchange(h, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: CHATGPT_CALLBACK,
      client_id: ids[0]!,
      code_verifier: verifier,
    });
    expect(tokens.statusCode, tokens.body).toBe(200);
    expect((await clientRow(ids[0]!))?.expiresAt).toBeNull();
    expect((await registerFrom({ redirect_uris: [CHATGPT_CALLBACK] })).statusCode).toBe(201);
  });
});

describe('clients never used', () => {
  it('stop working after a day and are swept with their registration access tokens; used ones stay', async () => {
    await clear();
    const unused = await register(h);
    const used = await register(h);
    const { verifier, challenge } = pkce();
    const back = await signInAndAuthorize(h, user, { clientId: used.client_id, challenge });
    const code = back.searchParams.get('code')!;
    expect(
      (
        await exchange(h, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: CHATGPT_CALLBACK,
          client_id: used.client_id,
          code_verifier: verifier,
        })
      ).statusCode,
    ).toBe(200);
    const rats = async () =>
      (
        await h.ctx.database.db.select().from(oauthEntities).where(eq(oauthEntities.model, 'RegistrationAccessToken'))
      ).map((r) => r.payload.clientId);
    expect(await rats()).toEqual(expect.arrayContaining([unused.client_id, used.client_id]));

    now += 23 * 3600_000;
    await h.ctx.oauth.sweep();
    expect(await clientRow(unused.client_id)).toBeDefined();
    now += 2 * 3600_000;
    // Past its day the client is unknown at once, before any sweep…
    const late = await h.req({
      method: 'GET',
      url: `/auth/oauth/authorize?response_type=code&client_id=${unused.client_id}&redirect_uri=${encodeURIComponent(CHATGPT_CALLBACK)}&code_challenge=${pkce().challenge}&code_challenge_method=S256`,
    });
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain('invalid_client');
    // …and the sweep deletes it and its registration access token.
    await h.ctx.oauth.sweep();
    expect(await clientRow(unused.client_id)).toBeUndefined();
    expect(await clientRow(used.client_id)).toBeDefined();
    expect(await rats()).toEqual([used.client_id]);
    // The per-address counts of an hour ago are gone too.
    expect(
      await h.ctx.database.db.select().from(oauthEntities).where(eq(oauthEntities.model, 'RegistrationAttempt')),
    ).toEqual([]);
  });
});
