// The ninth network (test/ninth-network) through every surface beside REST publishing: the tool layer over MCP, the
// agent's direct commands, the engagement routes, the workspace and media routes, the sandbox's control routes and
// the configuration. Each learns the network from the registry alone: a surface that keeps its own list of networks
// does not know Quill, and fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { NETWORKS } from '../../src/platforms/registry.ts';
import { SIMULATORS } from '../../src/sandbox/simulators.ts';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { mcpClient, textOf } from '../mcp/helpers.ts';
import { network, QUILL, QUILL_PASSWORD } from '../ninth-network/network.ts';
import { quillSimulator } from '../ninth-network/simulator.ts';

const quill = quillSimulator();
let h: Harness;
let u: TestUser;
let key: string;

beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    overrides: { networks: [...NETWORKS, network], simulators: [...SIMULATORS, quill] },
  });
  u = await h.signup();
  key = await h.createKey(u, 'full');
});
afterAll(() => h?.close());

const get = (url: string) => h.req({ method: 'GET', url, headers: asUser(u) });

describe('the ninth network beyond REST publishing', () => {
  it('GET /unified/platforms gives the composer its rules, read from the contract', async () => {
    const res = await h.req({ method: 'GET', url: '/unified/platforms' });
    expect(res.statusCode).toBe(200);
    expect(res.json().sandbox).toBe(true);
    const quillRules = res.json().platforms.find((p: { slug: string }) => p.slug === QUILL);
    expect(quillRules).toMatchObject({
      display_name: network.displayName,
      auth_kind: 'app_password',
      configured: true,
      post_types: ['text', 'image'],
      text: { max: 50, unit: 'graphemes' },
      destinations: null,
    });
    expect(Object.keys(quillRules.override_schema.properties)).toEqual(
      expect.arrayContaining(Object.keys(network.override!.shape)),
    );
  });

  it('connects, lists and publishes through the tool layer over MCP', async () => {
    const c = await mcpClient(`${h.url}/mcp`, { 'x-api-key': key });
    try {
      const connected = JSON.parse(
        textOf(
          await c.call('manage_platform_connection', {
            action: 'connect',
            platform: QUILL,
            handle: 'ada',
            app_password: QUILL_PASSWORD,
          }),
        ),
      );
      expect(connected).toMatchObject({ success: true });
      const accounts = JSON.parse(textOf(await c.call('get_accounts', { platform: QUILL })));
      expect(accounts.profiles[QUILL]).toMatchObject({ name: 'ada' });
      const published = JSON.parse(textOf(await c.call('publish', { platforms: [QUILL], default_text: 'Over MCP' })));
      expect(published).toMatchObject({ success: true, post: { platform: QUILL } });
      expect(quill.posts.at(-1)).toMatchObject({ text: 'Over MCP' });
    } finally {
      await c.close();
    }
  });

  it("is understood by the agent's direct commands, by slug, display name and the contract's aliases", async () => {
    const chat = async (text: string) => {
      const res = await h.req({
        method: 'POST',
        url: '/workspace-agent/website/chat',
        headers: asUser(u),
        payload: { text },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().parsed.response as string;
    };
    expect(await chat('publish "From the agent" to ql')).toContain('**Published to Quill.**');
    expect(quill.posts.at(-1)).toMatchObject({ text: 'From the agent' });
    expect(await chat('publish "Again" to Quill App')).toContain('**Published to Quill.**');
    expect(await chat('list accounts on quill')).toContain('| Quill | ada |');
    // A name no network has: the refusal lists the registry's networks, Quill among them.
    expect(await chat('publish "x" to myspace')).toMatch(/Herald's networks: LinkedIn, .*Bluesky, Quill\./);
  });

  it('is read by the engagement routes (a network without engagement says so in its own name)', async () => {
    const posts = await get(`/unified/posts?platforms=${QUILL}`);
    expect(posts.statusCode, posts.body).toBe(200);
    expect(JSON.stringify(posts.json())).toContain('Reading Quill posts is not available.');
    const analytics = await get(`/unified/analytics?platforms=${QUILL}`);
    expect(analytics.statusCode, analytics.body).toBe(200);
    expect(analytics.json().platforms).toHaveProperty(QUILL);
  });

  it('has its connection flag on the workspace and may tag media', async () => {
    const ws = await get('/workspaces');
    expect(ws.statusCode, ws.body).toBe(200);
    expect(ws.json()[0]).toMatchObject({ quill_connected: true, linkedin_connected: false });
    const media = await get(`/media?platform=${QUILL}`);
    expect(media.statusCode, media.body).toBe(200);
    const other = await get('/media?platform=myspace');
    expect(other.body).toContain(`Supported: ${[...NETWORKS.map((n) => n.slug), QUILL, 'twitter'].join(', ')}`);
  });

  it("is one of the sandbox's platforms in its control routes", async () => {
    const state = await h.req({ method: 'GET', url: `/sandbox/_state?platform=${QUILL}` });
    expect(state.statusCode, state.body).toBe(200);
    expect(state.json()).toHaveProperty(QUILL);
    const config = await h.req({ method: 'POST', url: '/sandbox/_config', payload: { processingMs: { [QUILL]: 5 } } });
    expect(config.statusCode, config.body).toBe(200);
    expect(config.json().processingMs[QUILL]).toBe(5);
    const fault = await h.req({
      method: 'POST',
      url: '/sandbox/_faults',
      payload: { platform: QUILL, operation: 'nope', fault: 'server_error' },
    });
    expect(fault.json().message).toMatch(/^operation "nope" does not exist on quill/);
    const seed = await h.req({ method: 'POST', url: '/sandbox/_seed', payload: { platform: QUILL, post_id: 'nope' } });
    expect(seed.statusCode).toBe(404);
    const unknown = await h.req({ method: 'POST', url: '/sandbox/_config', payload: { processingMs: { myspace: 5 } } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('unknown platform "myspace"');
  });

  it('reads its HERALD_QUILL_* configuration like a built-in network', () => {
    const c = loadConfig(
      {
        HERALD_QUILL_API_URL: 'http://127.0.0.1:9/quill/',
        HERALD_QUILL_CLIENT_ID: 'id-1',
        HERALD_QUILL_SPOILER_WORD: 'cw',
      },
      [...NETWORKS, network],
    );
    expect(c.platforms[QUILL]).toEqual({
      clientId: 'id-1',
      clientSecret: undefined,
      urls: { api: 'http://127.0.0.1:9/quill' },
      settings: { spoilerWord: 'cw' },
    });
    expect(() => loadConfig({ HERALD_QUILL_API_URL: 'ftp://x' }, [...NETWORKS, network])).toThrow(
      /HERALD_QUILL_API_URL: must be an http\(s\) URL/,
    );
  });
});
