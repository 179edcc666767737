// upload_media (its curl command really uploads), disconnect_gpt_connector (an OAuth grant revoked, an API key a
// no-op), clear_workspace_chat_history (through the agent's chat history store) and web_search_searxng against a
// fake SearXNG on loopback, listed only when HERALD_SEARXNG_URL is configured.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { CHATGPT_CALLBACK, exchange, pkce, register, signInAndAuthorize } from '../oauth/helpers.ts';
import { toolNamed, toolsFor } from '../../src/tools/index.ts';
import { toolContext } from '../../src/tools/tool.ts';
import { AppError } from '../../src/errors.ts';
import { FULL_SCOPE } from '../../src/auth/scopes.ts';
import { detailText, toolRunner } from './helpers.ts';

const run = promisify(execFile);

/** A fake SearXNG: answers /search?format=json from `answer`, and records what it was asked. */
let searx: Server;
let asked: URL[] = [];
let answer: (req: IncomingMessage) => { status: number; body: unknown; headers?: Record<string, string> } = () => ({
  status: 200,
  body: { results: [] },
});

let h: Harness;
beforeAll(async () => {
  searx = createServer((req, res) => {
    const u = new URL(req.url!, 'http://searx.test');
    asked.push(u);
    const a = answer(req);
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
  });
  await new Promise<void>((r) => searx.listen(0, '127.0.0.1', r));
  const port = (searx.address() as AddressInfo).port;
  h = await createHarness({ sandbox: true, env: { HERALD_SEARXNG_URL: `http://127.0.0.1:${port}/searx` } });
});
afterAll(async () => {
  await h?.close();
  await new Promise((r) => searx?.close(r));
});

const { call, fails } = toolRunner(() => h);

describe('upload_media', () => {
  it('answers a curl command that, run as given, uploads the file into the workspace library', async () => {
    const u = await h.signup();
    const key = await h.createKey(u, 'full');
    const path = join(tmpdir(), `herald tool's upload ${randomUUID()}.png`);
    await writeFile(
      path,
      await sharp({ create: { width: 64, height: 48, channels: 3, background: '#22aa66' } })
        .png()
        .toBuffer(),
    );
    const res = await call({ key }, 'upload_media', { file_path: path });
    expect(res).toMatchObject({
      success: true,
      upload_url: `${h.url}/media/upload`,
      method: 'POST',
      credential_env: 'HERALD_API_KEY',
      form_fields: { media_type: 'image' },
    });
    expect(res.curl_command).not.toContain(key);
    const out = await run('sh', ['-c', res.curl_command as string], { env: { ...process.env, HERALD_API_KEY: key } });
    const uploaded = JSON.parse(out.stdout) as { success: boolean; media_id: string; media_type: string };
    expect(uploaded).toMatchObject({ success: true, media_type: 'image' });
    const row = await h.ctx.media.get(u.workspaceId, FULL_SCOPE, uploaded.media_id);
    expect(row).toMatchObject({ id: uploaded.media_id });
  });

  it('with a session the command carries the workspace and a bearer token from $HERALD_TOKEN; a platform outside the key scope is refused', async () => {
    const u = await h.signup();
    const res = await call(u, 'upload_media', { file_path: '/tmp/clip.mov', platform: 'instagram' });
    expect(res.curl_command).toContain('Authorization: Bearer $HERALD_TOKEN');
    expect(res.curl_command).toContain(`X-Workspace-Id: ${u.workspaceId}`);
    expect(res.curl_command).toContain('-F media_type=video -F platform=instagram');
    const key = await h.createKey(u, 'linkedin');
    expect((await fails({ key }, 'upload_media', { file_path: '/tmp/a.png', platform: 'instagram' })).code).toBe(
      'scope_denied',
    );
    expect((await fails(u, 'upload_media', { file_path: 'a.png\nrm -rf /' })).code).toBe('bad_request');
  });
});

describe('disconnect_gpt_connector', () => {
  it('with an API key it changes nothing: revoked_oauth_token false and the key keeps working', async () => {
    const u = await h.signup();
    const key = await h.createKey(u, 'full');
    expect(await call({ key }, 'disconnect_gpt_connector', {})).toMatchObject({
      success: true,
      revoked_oauth_token: false,
    });
    expect((await call({ key }, 'get_accounts', {})).success).toBe(true);
  });

  it("with a connector's OAuth token it revokes the grant: the next authentication with that token is 401", async () => {
    const u = await h.signup();
    const client = await register(h);
    const { verifier, challenge } = pkce();
    const back = await signInAndAuthorize(h, u, { clientId: client.client_id, challenge });
    const code = back.searchParams.get('code')!;
    const tokenRes = await exchange(h, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CHATGPT_CALLBACK,
      client_id: client.client_id,
      code_verifier: verifier,
    });
    expect(tokenRes.statusCode, tokenRes.body).toBe(200);
    const token = tokenRes.json().access_token as string;
    const creds = { token, workspaceHeader: undefined, resource: h.config.publicUrl };
    const principal = await h.ctx.auth.workspace(creds);
    expect(principal.oauthGrantId).toEqual(expect.any(String));
    const tool = toolNamed('gpt', h.ctx, 'disconnect_gpt_connector')!;
    const res = await tool.run(
      toolContext(h.ctx, { principal, surface: 'gpt', oauthGrantId: principal.oauthGrantId ?? null }),
      {},
    );
    expect(res).toMatchObject({ success: true, revoked_oauth_token: true });
    const after = await h.ctx.auth.workspace(creds).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(AppError);
    expect((after as AppError).status).toBe(401);
  });
});

describe('clear_workspace_chat_history', () => {
  it("deletes the caller's workspace's archived turns and the agent's memory, and no other workspace's", async () => {
    const u = await h.signup();
    const other = await h.signup();
    expect(await call(u, 'clear_workspace_chat_history', {})).toMatchObject({
      success: true,
      deleted_archived_turns: 0,
    });
    const at = new Date('2026-03-01T10:00:00Z');
    const turn = (workspaceId: string, text: string) =>
      h.ctx.agentChats.archive({
        workspaceId,
        channel: 'website',
        user: { text, at },
        assistant: { text: `re: ${text}`, raw: JSON.stringify({ response: `re: ${text}` }), at },
      });
    for (const t of ['one', 'two', 'three']) await turn(u.workspaceId, t);
    await turn(other.workspaceId, 'kept');
    await h.ctx.agentChats.saveMemory(u.workspaceId, {
      summary: 'talked about posts',
      recent: [{ role: 'user', content: 'one' }],
    });
    expect(await call(u, 'clear_workspace_chat_history', {})).toMatchObject({
      success: true,
      deleted_archived_turns: 3,
      detail: expect.stringContaining('Deleted 3 chat turns'),
    });
    expect((await h.ctx.agentChats.list(u.workspaceId, { limit: 100, offset: 0 })).total).toBe(0);
    expect(await h.ctx.agentChats.memory(u.workspaceId)).toEqual({ summary: '', recent: [] });
    expect((await h.ctx.agentChats.list(other.workspaceId, { limit: 100, offset: 0 })).total).toBe(1);
  });
});

describe('web_search_searxng', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await h.signup();
  });

  it("asks the configured SearXNG's JSON API and answers titles, links and snippets, at most max_results", async () => {
    asked = [];
    answer = () => ({
      status: 200,
      body: {
        query: 'sourdough',
        results: [
          {
            url: 'https://bread.example/a',
            title: 'Sourdough basics',
            content: 'Flour, water, salt.',
            engine: 'duckduckgo',
          },
          { url: 'https://bread.example/a', title: 'Duplicate', content: 'again' },
          { url: 'javascript:alert(1)', title: 'Not a link' },
          { url: 'https://bread.example/b', title: 'Ovens', content: 'Hot.', publishedDate: '2026-01-02T00:00:00' },
          { url: 'https://bread.example/c', title: 'Third' },
        ],
      },
    });
    const res = await call(u, 'web_search_searxng', { query: '  sourdough  ', max_results: 2 });
    expect(res).toEqual({
      success: true,
      query: 'sourdough',
      message: '2 results.',
      results: [
        {
          title: 'Sourdough basics',
          url: 'https://bread.example/a',
          snippet: 'Flour, water, salt.',
          engine: 'duckduckgo',
          published: null,
        },
        {
          title: 'Ovens',
          url: 'https://bread.example/b',
          snippet: 'Hot.',
          engine: null,
          published: '2026-01-02T00:00:00',
        },
      ],
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.pathname).toBe('/searx/search');
    expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({ q: 'sourdough', format: 'json' });
  });

  it('a failing, non-JSON or redirecting search server is a tool error; a redirect is not followed', async () => {
    answer = () => ({ status: 500, body: 'boom' });
    expect(detailText(await fails(u, 'web_search_searxng', { query: 'x' }))).toContain('HTTP 500');
    answer = () => ({ status: 403, body: 'forbidden' });
    expect(detailText(await fails(u, 'web_search_searxng', { query: 'x' }))).toContain('json format');
    answer = () => ({ status: 200, body: '<html>not json' });
    expect(detailText(await fails(u, 'web_search_searxng', { query: 'x' }))).toContain('did not answer JSON');
    asked = [];
    answer = (req) =>
      req.url!.includes('/searx/')
        ? { status: 302, body: '', headers: { location: '/elsewhere?format=json' } }
        : { status: 200, body: { results: [{ url: 'https://x.example', title: 'leak' }] } };
    const err = await fails(u, 'web_search_searxng', { query: 'x' });
    expect(err.code).toBe('bad_gateway');
    expect(detailText(err)).toContain('HTTP 302');
    expect(asked.map((a) => a.pathname)).toEqual(['/searx/search']);
  });

  it('is listed on MCP and for the agent when configured, never on GPT Actions; without HERALD_SEARXNG_URL on no surface', async () => {
    expect(toolsFor('mcp', h.ctx).map((t) => t.name)).toContain('web_search_searxng');
    expect(toolsFor('agent', h.ctx).map((t) => t.name)).toContain('web_search_searxng');
    expect(toolsFor('gpt', h.ctx).map((t) => t.name)).not.toContain('web_search_searxng');
    const plain = await createHarness();
    try {
      for (const s of ['mcp', 'gpt', 'agent'] as const)
        expect(
          toolsFor(s, plain.ctx).map((t) => t.name),
          s,
        ).not.toContain('web_search_searxng');
      expect(toolNamed('mcp', plain.ctx, 'web_search_searxng')).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
