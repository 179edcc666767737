import { eq } from '../../src/db/orm.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../src/db/schema.ts';
import { hashKey } from '../../src/auth/api-keys.ts';
import { createHarness, bearer, asUser, type Harness } from '../helpers/harness.ts';

let h: Harness;
let now = new Date('2026-05-01T08:00:00Z');
beforeAll(async () => {
  h = await createHarness({ clock: () => now });
});
afterAll(async () => h?.close());

describe('API keys', () => {
  it('creates a key whose secret is shown once and stored only as a hash', async () => {
    const u = await h.signup();
    const res = await h.req({
      method: 'POST',
      url: `/workspaces/${u.workspaceId}/api-keys`,
      headers: bearer(u.token),
      payload: { name: 'ci' },
    });
    expect(res.statusCode).toBe(201);
    const key = res.json();
    expect(key.secret).toMatch(/^psk_live_[A-Za-z0-9_-]{43,}$/);
    expect(key).toMatchObject({
      workspace_id: u.workspaceId,
      name: 'ci',
      scope: 'linkedin_only',
      key_prefix: key.secret.slice(0, 8),
    });

    const list = await h.req({
      method: 'GET',
      url: `/workspaces/${u.workspaceId}/api-keys/`,
      headers: bearer(u.token),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toHaveLength(1);
    expect(JSON.stringify(list.json())).not.toContain(key.secret);
    expect(list.json()[0]).not.toHaveProperty('secret');

    const [row] = await h.ctx.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.keyHash).toBe(hashKey(key.secret));
    expect(JSON.stringify(row)).not.toContain(key.secret);
  });

  it('authenticates with X-API-Key or Bearer, and the workspace is inferred from the key', async () => {
    const u = await h.signup();
    const key = await h.createKey(u, 'full');
    for (const headers of [{ 'x-api-key': key }, bearer(key), { 'x-api-key': key, 'x-workspace-id': u.workspaceId }]) {
      const res = await h.req({ method: 'GET', url: '/billing/usage', headers });
      expect(res.statusCode).toBe(200);
    }
  });

  it('answers APIKEY_INVALID, APIKEY_REVOKED and APIKEY_EXPIRED with the interface messages', async () => {
    const u = await h.signup();
    const invalid = await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': 'psk_live_nope' } });
    expect(invalid.statusCode).toBe(401);
    expect(invalid.json()).toEqual({ detail: { error: 'APIKEY_INVALID', message: 'Invalid API key.' } });

    const created = await h.req({
      method: 'POST',
      url: `/workspaces/${u.workspaceId}/api-keys`,
      headers: bearer(u.token),
      payload: { scope: 'full' },
    });
    const { id, secret } = created.json();
    const del = await h.req({
      method: 'DELETE',
      url: `/workspaces/${u.workspaceId}/api-keys/${id}`,
      headers: bearer(u.token),
    });
    expect(del.statusCode).toBe(200);
    const revoked = await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': secret } });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toEqual({ detail: { error: 'APIKEY_REVOKED', message: 'API key has been revoked.' } });

    const expiring = await h.req({
      method: 'POST',
      url: `/workspaces/${u.workspaceId}/api-keys`,
      headers: bearer(u.token),
      payload: { scope: 'full', expires_at: new Date(now.getTime() + 60_000).toISOString() },
    });
    const soon = expiring.json().secret;
    expect((await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': soon } })).statusCode).toBe(
      200,
    );
    const saved = now;
    now = new Date(now.getTime() + 120_000);
    try {
      const expired = await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': soon } });
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toEqual({ detail: { error: 'APIKEY_EXPIRED', message: 'API key has expired.' } });
    } finally {
      now = saved;
    }
  });

  it('refuses a scope with empty entries (" , , " must never mean full access) with 422 on the scope field', async () => {
    const u = await h.signup();
    for (const scope of [' , , ', ',', 'linkedin,', 'linkedin,,instagram']) {
      const res = await h.req({
        method: 'POST',
        url: `/workspaces/${u.workspaceId}/api-keys`,
        headers: bearer(u.token),
        payload: { scope },
      });
      expect(res.statusCode, scope).toBe(422);
      expect(res.json().detail[0]).toMatchObject({
        loc: ['body', 'scope'],
        msg: expect.stringContaining('empty entry'),
      });
    }
    // The CLI and the admin route create keys through the same service.
    await expect(
      h.ctx.apiKeys.create({ workspaceId: u.workspaceId, name: null, scope: ' , , ', createdBy: null }),
    ).rejects.toMatchObject({ status: 422 });
    expect(await h.ctx.apiKeys.list(u.workspaceId)).toEqual([]);
  });

  it('refuses an expiry in the past and an unknown scope with 422', async () => {
    const u = await h.signup();
    const past = await h.req({
      method: 'POST',
      url: `/workspaces/${u.workspaceId}/api-keys`,
      headers: bearer(u.token),
      payload: { expires_at: '2001-01-01T00:00:00Z' },
    });
    expect(past.statusCode).toBe(422);
    expect(past.json().detail[0].loc).toEqual(['body', 'expires_at']);
    const scope = await h.req({
      method: 'POST',
      url: `/workspaces/${u.workspaceId}/api-keys`,
      headers: bearer(u.token),
      payload: { scope: 'linkedin,myspace' },
    });
    expect(scope.statusCode).toBe(422);
    expect(scope.json().detail[0]).toMatchObject({ loc: ['body', 'scope'] });
    expect(scope.json().detail[0].msg).toContain('myspace');
  });

  it("never shows or revokes another workspace's keys", async () => {
    const a = await h.signup();
    const b = await h.signup();
    const created = await h.req({
      method: 'POST',
      url: `/workspaces/${a.workspaceId}/api-keys`,
      headers: bearer(a.token),
      payload: {},
    });
    const keyId = created.json().id;
    // Another workspace answers as one that does not exist: 403, so ids cannot be probed.
    expect(
      (await h.req({ method: 'GET', url: `/workspaces/${a.workspaceId}/api-keys`, headers: bearer(b.token) }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await h.req({
          method: 'POST',
          url: `/workspaces/${a.workspaceId}/api-keys`,
          headers: bearer(b.token),
          payload: {},
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await h.req({
          method: 'DELETE',
          url: `/workspaces/${a.workspaceId}/api-keys/${keyId}`,
          headers: bearer(b.token),
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await h.req({
          method: 'DELETE',
          url: `/workspaces/${b.workspaceId}/api-keys/${keyId}`,
          headers: bearer(b.token),
        })
      ).statusCode,
    ).toBe(404);
    const bKey = await h.createKey(b, 'full');
    // Key management is for user sessions only.
    expect(
      (await h.req({ method: 'GET', url: `/workspaces/${b.workspaceId}/api-keys`, headers: { 'x-api-key': bKey } }))
        .statusCode,
    ).toBe(403);
  });

  it('needs api_keys_enabled to create a key, and keys stop working when the plan loses it', async () => {
    const u = await h.signup();
    const key = await h.createKey(u, 'full');
    await h.setPlan(u.workspaceId, 'free');
    const create = await h.req({
      method: 'POST',
      url: `/workspaces/${u.workspaceId}/api-keys`,
      headers: bearer(u.token),
      payload: {},
    });
    expect(create.statusCode).toBe(403);
    expect(create.json().detail).toEqual({
      error: 'plan_required',
      feature: 'api_keys_enabled',
      plan: 'free',
      message: 'Plan upgrade required for: api_keys_enabled',
    });
    const use = await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': key } });
    expect(use.statusCode).toBe(403);
    expect(use.json().detail.error).toBe('plan_required');
    // The owner's session still works on the free plan.
    expect((await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(u) })).statusCode).toBe(200);
  });

  it('a key revoked on another instance is refused there within a second, even with a longer cache setting', async () => {
    // 3 s asked for: the cache still answers for at most 1 s (src/auth/auth-cache.ts).
    const cached = await createHarness({ env: { HERALD_API_KEY_CACHE_SECONDS: '3' }, clock: () => now });
    try {
      const u = await cached.signup();
      const created = await cached.req({
        method: 'POST',
        url: `/workspaces/${u.workspaceId}/api-keys`,
        headers: bearer(u.token),
        payload: { scope: 'full' },
      });
      const { id, secret } = created.json();
      expect(
        (await cached.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': secret } })).statusCode,
      ).toBe(200);
      // Revoked behind this process's back (another instance): the cached entry serves until it ages out.
      await cached.ctx.database.db.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, id));
      expect(
        (await cached.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': secret } })).statusCode,
      ).toBe(200);
      const saved = now;
      now = new Date(now.getTime() + 1_001);
      try {
        expect(
          (await cached.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': secret } })).statusCode,
        ).toBe(401);
      } finally {
        now = saved;
      }
    } finally {
      await cached.close();
    }
  });
});

describe('workspace header rules', () => {
  it('a JWT needs X-Workspace-Id and membership; a malformed id is 422', async () => {
    const u = await h.signup();
    expect((await h.req({ method: 'GET', url: '/billing/usage', headers: bearer(u.token) })).statusCode).toBe(400);
    const bad = await h.req({
      method: 'GET',
      url: '/billing/usage',
      headers: { ...bearer(u.token), 'x-workspace-id': 'nope' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['header', 'x-workspace-id']);
    const unknown = await h.req({
      method: 'GET',
      url: '/billing/usage',
      headers: { ...bearer(u.token), 'x-workspace-id': '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.statusCode).toBe(403);
  });
});
