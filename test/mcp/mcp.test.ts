// The MCP server through the official SDK's client, as MCP Inspector, Claude Code or a chat connector uses it:
// tools/list (schemas, annotations, the surface's tools), tools/call with the caller's key or OAuth token, and
// every failure in-band (auth, plan, scope, arguments, the tool's own) except /web/mcp's 401 challenge.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolsFor } from '../../src/tools/index.ts';
import { RESTRICTED_PLAN } from '../helpers/security-matrix.ts';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { callRequest, mcpClient, rpc, textOf } from './helpers.ts';
import {
  Browser,
  CHATGPT_CALLBACK,
  exchange,
  hiddenField,
  pkce,
  register,
  signInAndAuthorize,
} from '../oauth/helpers.ts';

let h: Harness;
let owner: TestUser;
let key: string;
beforeAll(async () => {
  h = await createHarness({ sandbox: true });
  owner = await h.signup();
  await connect(h, owner, 'linkedin');
  await connect(h, owner, 'bluesky');
  key = await h.createKey(owner, 'full');
});
afterAll(async () => h?.close());

const cli = () => `${h.url}/mcp`;
const web = () => `${h.url}/web/mcp`;

/** What REST says about the same accounts (GET /unified/user-profiles). */
async function restProfiles(u: TestUser): Promise<Record<string, unknown>> {
  const res = await h.req({ method: 'GET', url: '/unified/user-profiles/', headers: asUser(u) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, unknown>;
}

describe('tools/list', () => {
  it('lists the MCP surface of the tool layer with JSON Schemas from the zod inputs and annotations', async () => {
    const c = await mcpClient(cli(), { 'x-api-key': key });
    try {
      expect(c.client.getServerVersion()?.name).toBe('herald');
      const { tools } = await c.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(toolsFor('mcp', h.ctx).map((t) => t.name));
      expect(tools.map((t) => t.name)).not.toContain('clear_workspace_chat_history');
      const accounts = tools.find((t) => t.name === 'get_accounts')!;
      expect(accounts.description).toBe(toolsFor('mcp', h.ctx).find((t) => t.name === 'get_accounts')!.description);
      expect(accounts.inputSchema).toMatchObject({
        type: 'object',
        properties: { platform: { type: 'string' }, force_refresh: { type: 'boolean' } },
      });
      expect(accounts.inputSchema).not.toHaveProperty('$schema');
      expect(accounts.inputSchema.required ?? []).toEqual([]);
      expect(accounts.annotations).toEqual({
        title: 'Get accounts',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      });
      for (const t of tools) {
        expect(t.inputSchema.type).toBe('object');
        expect(t.description!.length).toBeLessThanOrEqual(300);
      }
    } finally {
      await c.close();
    }
  });

  it('lists without a key too (the tools are no secret; calling them needs one)', async () => {
    const c = await mcpClient(cli());
    try {
      expect((await c.client.listTools()).tools.length).toBe(toolsFor('mcp', h.ctx).length);
    } finally {
      await c.close();
    }
  });
});

describe('tools/call on /mcp', () => {
  it("runs get_accounts for the key's workspace, as the REST profiles say, with the result as text and structured content", async () => {
    const c = await mcpClient(cli(), { 'x-api-key': key });
    try {
      const r = await c.call('get_accounts');
      expect(r.isError).toBe(false);
      const body = JSON.parse(textOf(r)) as {
        success: boolean;
        platforms: string[];
        profiles: Record<string, { name: string | null }>;
      };
      expect(r.structuredContent).toEqual(body);
      expect(body.success).toBe(true);
      expect(body.platforms.sort()).toEqual(['bluesky', 'linkedin']);
      const rest = await restProfiles(owner);
      for (const p of body.platforms) expect(rest).toHaveProperty(p);
      const one = await c.call('get_accounts', { platform: 'LinkedIn' });
      expect((one.structuredContent as { platforms: string[] }).platforms).toEqual(['linkedin']);
    } finally {
      await c.close();
    }
  });

  it('takes the key as X-API-Key, Authorization: Bearer psk_live_… or ?apikey=', async () => {
    for (const [url, headers] of [
      [cli(), { authorization: `Bearer ${key}` }],
      [`${cli()}?apikey=${encodeURIComponent(key)}`, {}],
    ] as const) {
      const c = await mcpClient(url, headers);
      try {
        const r = await c.call('get_accounts');
        expect(r.isError, textOf(r)).toBe(false);
        expect((r.structuredContent as { platforms: string[] }).platforms.sort()).toEqual(['bluesky', 'linkedin']);
      } finally {
        await c.close();
      }
    }
  });

  it('reports a missing, unknown or revoked key in-band, in the documented wording', async () => {
    const none = await mcpClient(cli());
    try {
      const r = await none.call('get_accounts');
      expect(r).toEqual({ content: [{ type: 'text', text: 'API key required' }], isError: true });
    } finally {
      await none.close();
    }
    const made = await h.req({
      method: 'POST',
      url: `/workspaces/${owner.workspaceId}/api-keys`,
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { name: 'soon revoked', scope: 'full' },
    });
    const { id, secret: revokedKey } = made.json() as { id: string; secret: string };
    const revoked = await h.req({
      method: 'DELETE',
      url: `/workspaces/${owner.workspaceId}/api-keys/${id}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    for (const bad of ['psk_live_not-a-key', revokedKey, owner.token]) {
      const c = await mcpClient(cli(), { 'x-api-key': bad });
      try {
        const r = await c.call('get_accounts');
        expect(r.isError).toBe(true);
        expect(textOf(r)).toBe('Invalid or expired API key');
      } finally {
        await c.close();
      }
    }
  });

  it('needs the plan feature mcp_enabled (in-band "Plan upgrade required for: mcp_enabled")', async () => {
    const u = await h.signup();
    const k = await h.createKey(u, 'full');
    await h.setPlan(u.workspaceId, RESTRICTED_PLAN);
    const c = await mcpClient(cli(), { 'x-api-key': k });
    try {
      const r = await c.call('get_accounts');
      expect(r).toEqual({ content: [{ type: 'text', text: 'Plan upgrade required for: mcp_enabled' }], isError: true });
    } finally {
      await c.close();
      await h.setPlan(u.workspaceId, 'pro');
    }
  });

  it('applies the key scope as REST does: another network is refused in-band, the listing keeps to the scope', async () => {
    const k = await h.createKey(owner, 'bluesky');
    const c = await mcpClient(cli(), { 'x-api-key': k });
    try {
      const denied = await c.call('get_accounts', { platform: 'linkedin' });
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toContain("'linkedin'");
      expect(textOf(denied)).toContain('Key scope: bluesky');
      const listed = await c.call('get_accounts');
      expect((listed.structuredContent as { platforms: string[] }).platforms).toEqual(['bluesky']);
    } finally {
      await c.close();
    }
  });

  it('lets a read-only linkedin_posts key call get_user_posts only, as on REST', async () => {
    const k = await h.createKey(owner, 'linkedin_posts');
    const c = await mcpClient(cli(), { 'x-api-key': k });
    try {
      const denied = await c.call('get_accounts');
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toContain('read-only (scope: linkedin_posts)');
      const posts = await c.call('get_user_posts', { platforms: ['linkedin'] });
      expect(posts.isError, textOf(posts)).toBe(false);
    } finally {
      await c.close();
    }
  });

  it("refuses arguments that fail the tool's schema in-band, naming the argument; an unknown tool is a protocol error", async () => {
    const c = await mcpClient(cli(), { 'x-api-key': key });
    try {
      const wrongType = await c.call('get_accounts', { force_refresh: 'yes' });
      expect(wrongType.isError).toBe(true);
      expect(textOf(wrongType)).toMatch(/^Invalid arguments for get_accounts: force_refresh: /);
      const unknownNetwork = await c.call('get_accounts', { platform: 'myspace' });
      expect(unknownNetwork.isError).toBe(true);
      expect(textOf(unknownNetwork)).toContain("Invalid or unsupported platform: 'myspace'");
      const err = await c.call('no_such_tool').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(-32602);
      expect((err as McpError).message).toContain("Unknown tool: 'no_such_tool'");
    } finally {
      await c.close();
    }
  });

  it('answers JSON (no SSE stream, no session) and refuses GET and DELETE with 405', async () => {
    const res = await rpc(cli(), callRequest('get_accounts'), { 'x-api-key': key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const body = (await res.json()) as { id: number; result: { isError: boolean } };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { isError: false } });
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(cli(), { method, headers: { accept: 'text/event-stream', 'x-api-key': key } });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
    }
  });

  it('serves concurrent clients each with their own answers (same JSON-RPC ids, different workspaces)', async () => {
    const other = await h.signup();
    await connect(h, other, 'bluesky');
    const otherKey = await h.createKey(other, 'full');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        rpc(cli(), callRequest('get_accounts'), { 'x-api-key': i % 2 ? key : otherKey }).then((r) => r.json()),
      ),
    );
    answers.forEach((a, i) => {
      const platforms = (
        a as { result: { structuredContent: { platforms: string[] } } }
      ).result.structuredContent.platforms.sort();
      expect(platforms).toEqual(i % 2 ? ['bluesky', 'linkedin'] : ['bluesky']);
    });
  });
});

describe('/web/mcp', () => {
  it('answers a request without credentials 401 with the protected-resource metadata in WWW-Authenticate', async () => {
    const res = await rpc(web(), callRequest('get_accounts'));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${h.url}/.well-known/oauth-protected-resource/web/mcp"`,
    );
    // The SDK's client, given no way to authorize, stops there.
    await expect(mcpClient(web())).rejects.toThrow();
  });

  it('takes a key as ?api-key=, ?apikey= or ?api_key=', async () => {
    for (const name of ['api-key', 'apikey', 'api_key']) {
      const c = await mcpClient(`${web()}?${name}=${encodeURIComponent(key)}`);
      try {
        const r = await c.call('get_accounts');
        expect(r.isError, textOf(r)).toBe(false);
        expect((r.structuredContent as { platforms: string[] }).platforms.sort()).toEqual(['bluesky', 'linkedin']);
      } finally {
        await c.close();
      }
    }
    const wrong = await mcpClient(`${web()}?api_key=psk_live_wrong`);
    try {
      expect(textOf(await wrong.call('get_accounts'))).toBe('Invalid or expired API key');
    } finally {
      await wrong.close();
    }
  });

  describe("with OAuth access tokens of Herald's authorization server", () => {
    /** The flow a connector runs (register, authorize, sign in, pick the workspace, code → token) for `resource`. */
    async function accessToken(
      u: TestUser,
      resource: string | null,
    ): Promise<{ access_token: string; refresh_token: string; client_id: string }> {
      const client = await register(h);
      const { verifier, challenge } = pkce();
      const back = await signInAndAuthorize(h, u, { clientId: client.client_id, challenge, resource });
      const res = await exchange(h, {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: CHATGPT_CALLBACK,
        client_id: client.client_id,
        code_verifier: verifier,
      });
      expect(res.statusCode, res.body).toBe(200);
      return { ...(res.json() as { access_token: string; refresh_token: string }), client_id: client.client_id };
    }

    it("runs tools for the token's workspace, with a token for /web/mcp or for the whole API", async () => {
      for (const resource of [`${h.url}/web/mcp`, null]) {
        const { access_token } = await accessToken(owner, resource);
        const c = await mcpClient(web(), { authorization: `Bearer ${access_token}` });
        try {
          const r = await c.call('get_accounts');
          expect(r.isError, textOf(r)).toBe(false);
          expect((r.structuredContent as { platforms: string[] }).platforms.sort()).toEqual(['bluesky', 'linkedin']);
        } finally {
          await c.close();
        }
      }
    });

    it('answers an unknown or revoked token, or a user session, 401 invalid_token with the resource metadata', async () => {
      const { access_token, refresh_token, client_id } = await accessToken(owner, `${h.url}/web/mcp`);
      const revoke = await h.req({
        method: 'POST',
        url: '/auth/oauth/revoke',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token: refresh_token, client_id }).toString(),
      });
      expect(revoke.statusCode, revoke.body).toBe(200);
      for (const token of [access_token, 'some.other.token', 'not-a-jwt', owner.token]) {
        const res = await rpc(web(), callRequest('get_accounts'), { authorization: `Bearer ${token}` });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain(
          `resource_metadata="${h.url}/.well-known/oauth-protected-resource/web/mcp"`,
        );
        expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
      }
    });

    it('does not take OAuth tokens on /mcp (API keys only)', async () => {
      const { access_token } = await accessToken(owner, null);
      const c = await mcpClient(cli(), { authorization: `Bearer ${access_token}` });
      try {
        expect(textOf(await c.call('get_accounts'))).toBe('Invalid or expired API key');
      } finally {
        await c.close();
      }
    });

    it('needs mcp_enabled for OAuth callers too', async () => {
      const u = await h.signup();
      const { access_token } = await accessToken(u, `${h.url}/web/mcp`);
      await h.setPlan(u.workspaceId, RESTRICTED_PLAN);
      const res = await rpc(web(), callRequest('get_accounts'), { authorization: `Bearer ${access_token}` });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { result: unknown }).result).toEqual({
        content: [{ type: 'text', text: 'Plan upgrade required for: mcp_enabled' }],
        isError: true,
      });
    });
  });
});

describe("a connector signing in by itself (the SDK client's OAuth support, as Claude does)", () => {
  it('discovers the authorization server from the 401, registers, signs in, and then calls the tools', async () => {
    const redirectUrl = 'http://127.0.0.1:9/oauth/callback';
    let client: OAuthClientInformationMixed | undefined;
    let tokens: OAuthTokens | undefined;
    let verifier = '';
    let authorizationUrl: URL | undefined;
    const provider: OAuthClientProvider = {
      redirectUrl,
      clientMetadata: {
        client_name: 'Inspector-like test client',
        redirect_uris: [redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      clientInformation: () => client,
      saveClientInformation: (c) => void (client = c),
      tokens: () => tokens,
      saveTokens: (t) => void (tokens = t),
      redirectToAuthorization: (url) => void (authorizationUrl = url),
      saveCodeVerifier: (v) => void (verifier = v),
      codeVerifier: () => verifier,
    };
    const first = new StreamableHTTPClientTransport(new URL(web()), { authProvider: provider });
    await expect(new Client({ name: 'inspector-like', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(client?.client_id).toBeTruthy();
    expect(authorizationUrl?.searchParams.get('resource')).toBe(`${h.url}/web/mcp`);
    expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');

    // The person in the browser: sign in, pick the workspace, and the redirect back carries the code.
    const b = new Browser(h);
    const start = await b.get(authorizationUrl!.toString());
    expect(start.statusCode, start.body).toBe(303);
    const form = await b.get(start.headers.location as string);
    const signedIn = await b.post('/auth/oauth/login', {
      uid: hiddenField(form.body, 'uid'),
      csrf: hiddenField(form.body, 'csrf'),
      email: owner.email,
      password: owner.password,
    });
    expect(signedIn.statusCode, signedIn.body).toBe(303);
    const pick = await b.get(signedIn.headers.location as string);
    const chosen = await b.post('/auth/oauth/select-workspace', {
      uid: hiddenField(pick.body, 'uid'),
      csrf: hiddenField(pick.body, 'csrf'),
      workspace_id: owner.workspaceId,
    });
    expect(chosen.statusCode, chosen.body).toBe(303);
    const back = await b.get(chosen.headers.location as string);
    const code = new URL(back.headers.location as string).searchParams.get('code');
    expect(code).toBeTruthy();

    await first.finishAuth(code!);
    expect(tokens?.access_token).toBeTruthy();
    const c = new Client({ name: 'inspector-like', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(web()), { authProvider: provider }));
    try {
      const r = (await c.callTool({ name: 'get_accounts', arguments: {} })) as CallToolResult;
      expect(r.isError, textOf(r)).toBe(false);
      expect((r.structuredContent as { platforms: string[] }).platforms.sort()).toEqual(['bluesky', 'linkedin']);
    } finally {
      await c.close();
    }
  });
});
