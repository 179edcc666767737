// GPT Actions: the OpenAPI document ChatGPT imports (linted, within ChatGPT's limits) and the action calls with
// their transport-level answers (401, 402, 422, 404) and in-band tool failures (HTTP 200, success false).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { RESTRICTED_PLAN } from '../helpers/security-matrix.ts';
import { connect } from '../connections/helpers.ts';
import { toolsFor } from '../../src/tools/index.ts';
import { GPT_LIMITS } from '../../src/transports/rest/gpt-actions-document.ts';
import { gptActionTools } from '../../src/transports/rest/gpt-files.ts';
import { lintOpenApi } from '../helpers/openapi-lint.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true });
});
afterAll(async () => h?.close());

// biome-ignore lint/suspicious/noExplicitAny: response bodies the tests index freely; each test asserts its shape
type Json = Record<string, any>;
const action = (name: string, headers: Record<string, string>, payload?: unknown) =>
  h.req({
    method: 'POST',
    url: `/unified/gpt-actions/${name}`,
    headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const keyed = async (u: TestUser, scope = 'full') => ({ authorization: `Bearer ${await h.createKey(u, scope)}` });

describe('GET /openapi/chatgpt-actions.json', () => {
  let doc: Json;
  beforeAll(async () => {
    const res = await h.req({ method: 'GET', url: '/openapi/chatgpt-actions.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    doc = res.json();
  });

  it('is public OpenAPI 3.1.0 with one POST per GPT tool, operationId = tool name, BearerAuth, the timeout hint and the public URL as server', () => {
    const tools = gptActionTools(h.ctx);
    expect(tools.map((t) => t.name)).toEqual(toolsFor('gpt', h.ctx).map((t) => t.name));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: h.url, description: expect.any(String) }]);
    expect(doc.components.securitySchemes.BearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ BearerAuth: [] }]);
    expect(Object.keys(doc.paths).sort()).toEqual(tools.map((t) => `/unified/gpt-actions/${t.name}`).sort());
    for (const tool of tools) {
      const item = doc.paths[`/unified/gpt-actions/${tool.name}`];
      expect(Object.keys(item)).toEqual(['post']);
      expect(item.post.operationId).toBe(tool.name);
      expect(item.post.description).toBe(tool.description);
      expect(item.post['x-openai-action-timeout']).toBe(120);
      expect(item.post['x-openai-isConsequential'], tool.name).toBe(!tool.annotations.readOnly);
      expect(item.post.requestBody.content['application/json'].schema.type).toBe('object');
      expect(Object.keys(item.post.responses)).toEqual(['200', '401', '402', '422']);
    }
    // Read-only tools are not consequential (ChatGPT offers "Always allow"); get_accounts is one.
    expect(doc.paths['/unified/gpt-actions/get_accounts'].post['x-openai-isConsequential']).toBe(false);
    expect(doc['x-openai-action-timeout']).toBe(120);
    // The surface rule: no web search, no chat clearing.
    for (const path of Object.keys(doc.paths)) expect(path).not.toMatch(/web_search_|clear_workspace_chat_history/);
  });

  it("request schemas are the tools' own (JSON Schema of their zod input)", () => {
    const schema = doc.paths['/unified/gpt-actions/get_accounts'].post.requestBody.content['application/json'].schema;
    expect(schema.properties).toMatchObject({ platform: { type: 'string' }, force_refresh: { type: 'boolean' } });
    expect(schema).not.toHaveProperty('$schema');
  });

  it("stays within ChatGPT's limits: ≤ 30 operations, summaries and descriptions ≤ 300 characters, parameter descriptions ≤ 700, flat JSON bodies, unique url-safe operationIds", () => {
    const ops = (Object.values(doc.paths) as Json[]).map((p) => p.post as Json);
    expect(ops.length).toBeGreaterThan(0);
    expect(ops.length).toBeLessThanOrEqual(GPT_LIMITS.operations);
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    // Flat: every argument is a primitive, a list of primitives, or a one-level map of network → text
    // (idea_by_platform); never an object with properties of its own or anything nested deeper.
    const isScalar = (s: Json): boolean =>
      s.anyOf ? (s.anyOf as Json[]).every(isScalar) : ['string', 'number', 'integer', 'boolean'].includes(s.type);
    const isPrimitive = (s: Json): boolean =>
      s.anyOf
        ? (s.anyOf as Json[]).every(isPrimitive)
        : isScalar(s) ||
          (s.type === 'array' && isScalar(s.items ?? {})) ||
          (s.type === 'object' && !s.properties && isScalar(s.additionalProperties ?? {}));
    for (const op of ops) {
      expect(op.operationId).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(op.summary.length, op.operationId).toBeLessThanOrEqual(300);
      expect(op.description.length, op.operationId).toBeLessThanOrEqual(300);
      const schema = op.requestBody.content['application/json'].schema as Json;
      for (const [name, prop] of Object.entries(schema.properties ?? {}) as [string, Json][]) {
        expect(isPrimitive(prop), `${op.operationId}.${name} is not flat: ${JSON.stringify(prop)}`).toBe(true);
        expect((prop.description ?? '').length, `${op.operationId}.${name}`).toBeLessThanOrEqual(700);
      }
    }
    expect(JSON.stringify(doc).length).toBeLessThan(100_000);
  });

  it('lints clean with Redocly (recommended ruleset), and the linter does find a broken document', async () => {
    expect(await lintOpenApi(doc, 'chatgpt-actions.json')).toEqual([]);
    const broken = structuredClone(doc);
    const first = Object.values(broken.paths)[0] as Json;
    delete broken.info.version;
    (Object.values(broken.paths)[1] as Json).post.operationId = first.post.operationId;
    const problems = await lintOpenApi(broken);
    expect(problems.map((p) => p.ruleId)).toEqual(expect.arrayContaining(['struct', 'operation-operationId-unique']));
  });
});

describe('POST /unified/gpt-actions/{tool}', () => {
  it('runs the tool with an API key (X-API-Key or Bearer) or a session with X-Workspace-Id; the body is its arguments', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    const key = await h.createKey(u, 'full');
    for (const headers of [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }, asUser(u)] as Record<
      string,
      string
    >[]) {
      const res = await action('get_accounts', headers, { force_refresh: false });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        platforms: ['bluesky'],
        profiles: { bluesky: expect.any(Object) },
      });
    }
    // A tool without required arguments takes an empty body, or none.
    const empty = await h.req({
      method: 'POST',
      url: '/unified/gpt-actions/get_accounts',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json().success).toBe(true);
    const none = await h.req({
      method: 'POST',
      url: '/unified/gpt-actions/get_accounts',
      headers: { 'x-api-key': key },
    });
    expect(none.statusCode, none.body).toBe(200);
  });

  it('401 without valid credentials, before anything else', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer psk_live_not-a-key' },
      { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.bad' },
    ] as Record<string, string>[]) {
      const res = await action('get_accounts', headers, { force_refresh: 'not even valid' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toHaveProperty('detail');
    }
    expect((await action('no_such_action', {}, {})).statusCode).toBe(401);
  });

  it('402 with the plan message when the plan lacks gpt_app_enabled', async () => {
    const u = await h.signup();
    const headers = await keyed(u);
    await h.setPlan(u.workspaceId, RESTRICTED_PLAN);
    const res = await action('get_accounts', headers, {});
    expect(res.statusCode).toBe(402);
    expect(res.json().detail).toMatchObject({
      error: 'plan_required',
      feature: 'gpt_app_enabled',
      message: 'Plan upgrade required for: gpt_app_enabled',
    });
    await h.setPlan(u.workspaceId, 'starter');
    expect((await action('get_accounts', headers, {})).statusCode).toBe(403); // starter has no API keys: the key stops working
    expect((await action('get_accounts', asUser(u), {})).statusCode).toBe(402);
  });

  it('422 for a body that fails the schema, naming the field', async () => {
    const u = await h.signup();
    const headers = await keyed(u);
    const wrong = await action('get_accounts', headers, { force_refresh: 'yes' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail[0].loc).toEqual(['body', 'force_refresh']);
    const missing = await action('reply_to_comment', headers, { platform: 'bluesky' });
    expect(missing.statusCode).toBe(422);
    expect(
      missing
        .json()
        .detail.map((d: { loc: string[] }) => d.loc[1])
        .sort(),
    ).toEqual(['comment_id', 'text']);
    const notJson = await h.req({
      method: 'POST',
      url: '/unified/gpt-actions/get_accounts',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"platform":',
    });
    expect(notJson.statusCode).toBe(422);
    const array = await action('get_accounts', headers, [1, 2]);
    expect(array.statusCode).toBe(422);
  });

  it('404 for an unknown action, naming the actions there are', async () => {
    const u = await h.signup();
    const res = await action('web_search_searxng', await keyed(u), { query: 'x' });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toContain('get_accounts');
    expect((await action('clear_workspace_chat_history', await keyed(u), {})).statusCode).toBe(404);
  });

  it('a tool that fails answers HTTP 200 with success false and a message: a bad argument, the key scope, a read-only key', async () => {
    const u = await h.signup();
    const unknown = await action('get_accounts', await keyed(u), { platform: 'myspace' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toMatchObject({
      success: false,
      error: 'bad_request',
      message: expect.stringContaining("'myspace'"),
    });
    const scoped = await action('get_accounts', await keyed(u, 'linkedin'), { platform: 'bluesky' });
    expect(scoped.statusCode).toBe(200);
    expect(scoped.json()).toMatchObject({
      success: false,
      error: 'scope_denied',
      message: expect.stringContaining('bluesky'),
    });
    // A read-only linkedin_posts key may call only get_user_posts, as on REST.
    const postsKey = await keyed(u, 'linkedin_posts');
    const readOnly = await action('get_accounts', postsKey, {});
    expect(readOnly.statusCode).toBe(200);
    expect(readOnly.json()).toMatchObject({ success: false, error: 'scope_denied' });
    const posts = await action('get_user_posts', postsKey, { platforms: ['linkedin'] });
    expect(posts.statusCode).toBe(200);
    expect(posts.json().success, posts.body).toBe(true);
  });

  it('an unexpected fault is in band too, with the request id and nothing internal', async () => {
    const u = await h.signup();
    const original = h.ctx.profiles.profiles;
    h.ctx.profiles.profiles = (async () => {
      throw new Error('database exploded at /secret/path');
    }) as typeof original;
    try {
      const res = await action('get_accounts', await keyed(u), {});
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        success: false,
        error: 'internal',
        message: expect.stringContaining(res.headers['x-request-id'] as string),
      });
      expect(res.body).not.toContain('secret');
    } finally {
      h.ctx.profiles.profiles = original;
    }
  });

  it("another workspace's key or session cannot act here", async () => {
    const owner = await h.signup();
    const stranger = await h.signup();
    const res = await action(
      'get_accounts',
      { authorization: `Bearer ${stranger.token}`, 'x-workspace-id': owner.workspaceId },
      {},
    );
    expect(res.statusCode).toBe(403);
  });
});
