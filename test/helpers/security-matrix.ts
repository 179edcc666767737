// The shared security matrix every workspace route runs: no auth, another workspace, a key scope
// outside the route's platform, and a plan without the route's feature.
import { expect, it } from 'vitest';
import type { Feature } from '../../src/auth/plans.ts';
import { PLATFORMS } from '../../src/auth/scopes.ts';
import type { Harness, TestUser } from './harness.ts';

export interface RouteUnderTest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `made` is what `prepare` returned for this owner. */
  url: string | ((u: TestUser, made: string) => string);
  /** Makes what the route acts on in the owner's workspace (e.g. a draft, whose platform the scope check reads); its id. */
  prepare?: (h: Harness, owner: TestUser) => Promise<string>;
  payload?: unknown | ((u: TestUser) => unknown);
  /** The platform this request acts on: a key scoped to another platform must get 403. */
  platform?: string;
  /** The plan feature the route requires. */
  feature?: Feature;
  /** The status of a plan without it: 403 plan_required by default; 402 for GPT Actions (the interface says so). */
  planStatus?: 402;
}

/** A plan with every feature off except API keys, so a key can still reach the feature gate. */
export const RESTRICTED_PLAN = 'restricted';
export const restrictedPlansFile = {
  plans: {
    [RESTRICTED_PLAN]: {
      display_name: 'Restricted (tests)',
      features: {
        publish_enabled: false,
        ai_composer_enabled: false,
        drafts_enabled: false,
        scheduling_enabled: false,
        analytics_enabled: false,
        inbox_enabled: false,
        mcp_enabled: false,
        gpt_app_enabled: false,
        webhooks_enabled: false,
        bulk_scheduling_enabled: false,
        api_keys_enabled: true,
      },
    },
  },
};

export function securityMatrix(getHarness: () => Harness, route: RouteUnderTest): void {
  const name = `${route.method} ${typeof route.url === 'string' ? route.url : route.url({ workspaceId: '{workspace}' } as TestUser, '{id}')}`;
  const made = new WeakMap<TestUser, string>();
  /** Signs up a workspace owner and makes what the route acts on. */
  const ownerWith = async (h: Harness): Promise<TestUser> => {
    const owner = await h.signup();
    if (route.prepare) made.set(owner, await route.prepare(h, owner));
    return owner;
  };
  const call = async (owner: TestUser, headers: Record<string, string>) => {
    const h = getHarness();
    const url = typeof route.url === 'function' ? route.url(owner, made.get(owner) ?? '') : route.url;
    const payload =
      typeof route.payload === 'function' ? (route.payload as (u: TestUser) => unknown)(owner) : route.payload;
    return h.req({
      method: route.method,
      url,
      headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  };

  it(`${name}: no credentials → 401`, async () => {
    const owner = await ownerWith(getHarness());
    const res = await call(owner, {});
    expect(res.statusCode).toBe(401);
    expect(res.json()).toHaveProperty('detail');
  });

  it(`${name}: another workspace's JWT or key → 403`, async () => {
    const h = getHarness();
    const owner = await ownerWith(h);
    const stranger = await h.signup();
    const strangerKey = await h.createKey(stranger, 'full');
    const viaJwt = await call(owner, {
      authorization: `Bearer ${stranger.token}`,
      'x-workspace-id': owner.workspaceId,
    });
    expect(viaJwt.statusCode).toBe(403);
    const viaKey = await call(owner, { 'x-api-key': strangerKey, 'x-workspace-id': owner.workspaceId });
    expect(viaKey.statusCode).toBe(403);
    expect(viaKey.json().detail).toBe('workspace does not match API key');
  });

  if (route.platform) {
    const platform = route.platform;
    it(`${name}: key scoped outside '${platform}' → 403 naming the platform and scope`, async () => {
      const h = getHarness();
      const owner = await ownerWith(h);
      const other = PLATFORMS.find((p) => p !== platform)!;
      const key = await h.createKey(owner, other);
      const res = await call(owner, { 'x-api-key': key });
      expect(res.statusCode).toBe(403);
      expect(String(res.json().detail)).toContain(`'${platform}'`);
      expect(String(res.json().detail)).toContain(`Key scope: ${other}`);
    });
  }

  if (route.feature) {
    const feature = route.feature;
    const status = route.planStatus ?? 403;
    it(`${name}: plan without ${feature} → ${status} plan_required`, async () => {
      const h = getHarness();
      const owner = await ownerWith(h);
      const key = await h.createKey(owner, 'full');
      await h.setPlan(owner.workspaceId, RESTRICTED_PLAN);
      const variants: Record<string, string>[] = [
        { 'x-api-key': key },
        { authorization: `Bearer ${owner.token}`, 'x-workspace-id': owner.workspaceId },
      ];
      for (const headers of variants) {
        const res = await call(owner, headers);
        expect(res.statusCode).toBe(status);
        expect(res.json().detail).toMatchObject({ error: 'plan_required', feature, plan: RESTRICTED_PLAN });
      }
    });
  }
}

export interface AccountRouteUnderTest {
  method: RouteUnderTest['method'];
  /** The route for the owner's workspace. */
  url: (u: TestUser) => string;
  payload?: unknown | ((u: TestUser) => unknown);
  /** Owners only: a member who is not an owner gets 403 (with this detail when the route words it its own way). */
  ownerOnly?: boolean | string;
  /** A route about the caller, not one workspace (no other-workspace case). */
  noWorkspace?: boolean;
}

/** Makes `user` a member of `owner`'s workspace the way a person would: invited, then accepting. */
export async function joinWorkspace(
  h: Harness,
  owner: TestUser,
  user: TestUser,
  role: 'owner' | 'member' = 'member',
): Promise<void> {
  const invite = await h.req({
    method: 'POST',
    url: `/workspaces/${owner.workspaceId}/invitations`,
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { email: user.email, role },
  });
  if (invite.statusCode !== 201) throw new Error(`invitation failed: ${invite.statusCode} ${invite.body}`);
  const accept = await h.req({
    method: 'POST',
    url: '/invitations/accept',
    headers: { authorization: `Bearer ${user.token}` },
    payload: { token: invite.json().token },
  });
  if (accept.statusCode !== 200) throw new Error(`accepting failed: ${accept.statusCode} ${accept.body}`);
}

/**
 * The matrix of session-only routes under /workspaces/{id} (and the account's own routes): no
 * credentials 401; another user's session 403, alike for a workspace that does not exist; an API
 * key, even one of this workspace, 403; a plain member 403 where owners only may act.
 */
export function accountRouteMatrix(getHarness: () => Harness, route: AccountRouteUnderTest): void {
  const name = `${route.method} ${route.url({ workspaceId: '{workspace}', userId: '{user}' } as TestUser)}`;
  const call = (owner: TestUser, headers: Record<string, string>, url = route.url(owner)) => {
    const payload =
      typeof route.payload === 'function' ? (route.payload as (u: TestUser) => unknown)(owner) : route.payload;
    return getHarness().req({
      method: route.method,
      url,
      headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  };

  it(`${name}: no credentials → 401`, async () => {
    const owner = await getHarness().signup();
    const res = await call(owner, {});
    expect(res.statusCode).toBe(401);
    expect(res.json()).toHaveProperty('detail');
  });

  it(`${name}: an API key → 403 (user sessions only)`, async () => {
    const h = getHarness();
    const owner = await h.signup();
    const key = await h.createKey(owner, 'full');
    for (const headers of [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }] as Record<string, string>[]) {
      const res = await call(owner, headers);
      expect(res.statusCode).toBe(403);
      expect(String(res.json().detail)).toContain('user session');
    }
  });

  if (!route.noWorkspace) {
    it(`${name}: another user's session → 403, as for a workspace that does not exist`, async () => {
      const h = getHarness();
      const owner = await h.signup();
      const stranger = await h.signup();
      const theirs = await call(owner, { authorization: `Bearer ${stranger.token}` });
      expect(theirs.statusCode).toBe(403);
      const missing = await call(
        owner,
        { authorization: `Bearer ${owner.token}` },
        route.url({ ...owner, workspaceId: '00000000-0000-4000-8000-000000000000' }),
      );
      expect(missing.statusCode).toBe(403);
      expect(missing.json()).toEqual(theirs.json());
    });
  }

  if (route.ownerOnly) {
    it(`${name}: a member who is not an owner → 403`, async () => {
      const h = getHarness();
      const owner = await h.signup();
      const member = await h.signup();
      await joinWorkspace(h, owner, member);
      const res = await call(owner, { authorization: `Bearer ${member.token}` });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe(
        typeof route.ownerOnly === 'string' ? route.ownerOnly : 'Only workspace owners can do this.',
      );
    });
  }
}

/**
 * The matrix of operator routes (`config.access.kind: 'admin'`): no credentials 401, an API key 403 (user sessions
 * only), a signed-in user who is not an administrator 403.
 */
export function adminRouteMatrix(getHarness: () => Harness, route: AccountRouteUnderTest): void {
  const name = `${route.method} ${route.url({ workspaceId: '{workspace}', userId: '{user}' } as TestUser)}`;
  const call = (owner: TestUser, headers: Record<string, string>) => {
    const payload =
      typeof route.payload === 'function' ? (route.payload as (u: TestUser) => unknown)(owner) : route.payload;
    return getHarness().req({
      method: route.method,
      url: route.url(owner),
      headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  };

  it(`${name}: no credentials → 401`, async () => {
    const res = await call(await getHarness().signup(), {});
    expect(res.statusCode).toBe(401);
    expect(res.json()).toHaveProperty('detail');
  });

  it(`${name}: an API key, or a user who is not an administrator → 403`, async () => {
    const h = getHarness();
    const user = await h.signup();
    expect((await h.ctx.accounts.byId(user.userId))?.isAdmin).toBe(false);
    const key = await h.createKey(user, 'full');
    for (const headers of [{ 'x-api-key': key }, { authorization: `Bearer ${user.token}` }] as Record<
      string,
      string
    >[]) {
      const res = await call(user, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toHaveProperty('detail');
    }
  });
}

export interface McpRouteUnderTest {
  url: string;
  /** /mcp (keys, every failure in-band) or /web/mcp (OAuth or a key in the query; no credential → 401 challenge). */
  endpoint: 'cli' | 'web';
}

/**
 * The matrix of the MCP endpoints: a tools/call of get_accounts. No credentials: in-band "API key required" on /mcp, 401
 * with the protected-resource metadata on /web/mcp; a user session (even the owner's, with X-Workspace-Id) is no MCP
 * credential; a key scoped outside the network asked for is refused in-band naming it and the scope; a plan without
 * mcp_enabled is refused in-band.
 */
export function mcpRouteMatrix(getHarness: () => Harness, route: McpRouteUnderTest): void {
  const name = `POST ${route.url}`;
  const keyed = (key: string): { url: string; headers: Record<string, string> } =>
    route.endpoint === 'cli'
      ? { url: route.url, headers: { 'x-api-key': key } }
      : { url: `${route.url}?api_key=${encodeURIComponent(key)}`, headers: {} };
  const call = (target: { url: string; headers: Record<string, string> }, args: Record<string, unknown> = {}) =>
    getHarness().req({
      method: 'POST',
      url: target.url,
      headers: {
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...target.headers,
      },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_accounts', arguments: args } },
    });
  const inBand = (res: { statusCode: number; json(): unknown; body: string }) => {
    expect(res.statusCode, res.body).toBe(200);
    const result = (res.json() as { result: { isError: boolean; content: { text: string }[] } }).result;
    expect(result.isError).toBe(true);
    return result.content[0]!.text;
  };

  it(`${name}: no credentials → ${route.endpoint === 'cli' ? 'in-band "API key required"' : '401 with the resource metadata'}`, async () => {
    const res = await call({ url: route.url, headers: {} });
    if (route.endpoint === 'cli') {
      expect(inBand(res)).toBe('API key required');
    } else {
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe(
        `Bearer resource_metadata="${getHarness().url}/.well-known/oauth-protected-resource/web/mcp"`,
      );
    }
  });

  it(`${name}: a user session with X-Workspace-Id is no MCP credential`, async () => {
    const owner = await getHarness().signup();
    const res = await call({
      url: route.url,
      headers: { authorization: `Bearer ${owner.token}`, 'x-workspace-id': owner.workspaceId },
    });
    if (route.endpoint === 'cli') expect(inBand(res)).toBe('Invalid or expired API key');
    else expect(res.statusCode).toBe(401);
  });

  it(`${name}: key scoped outside the network asked for → in-band refusal naming the platform and scope`, async () => {
    const h = getHarness();
    const owner = await h.signup();
    const key = await h.createKey(owner, 'threads');
    const text = inBand(await call(keyed(key), { platform: 'bluesky' }));
    expect(text).toContain("'bluesky'");
    expect(text).toContain('Key scope: threads');
  });

  it(`${name}: plan without mcp_enabled → in-band "Plan upgrade required for: mcp_enabled"`, async () => {
    const h = getHarness();
    const owner = await h.signup();
    const key = await h.createKey(owner, 'full');
    await h.setPlan(owner.workspaceId, RESTRICTED_PLAN);
    expect(inBand(await call(keyed(key)))).toBe('Plan upgrade required for: mcp_enabled');
  });
}
