// The web-search tool over MCP, as an MCP client uses it: listed when HERALD_SEARXNG_URL is configured, called with
// the SDK's own client, answered from a fake SearXNG on loopback; a failing search server is an in-band tool error.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.ts';
import { mcpClient, textOf } from './helpers.ts';

let searx: Server;
let status = 200;
const queries: string[] = [];
let h: Harness;
let key: string;
beforeAll(async () => {
  searx = createServer((req, res) => {
    const u = new URL(req.url!, 'http://searx.test');
    queries.push(u.searchParams.get('q') ?? '');
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        results: [{ url: 'https://news.example/launch', title: 'Launch day', content: 'It shipped.' }],
      }),
    );
  });
  await new Promise<void>((r) => searx.listen(0, '127.0.0.1', r));
  h = await createHarness({
    sandbox: true,
    env: { HERALD_SEARXNG_URL: `http://127.0.0.1:${(searx.address() as AddressInfo).port}` },
  });
  key = await h.createKey(await h.signup(), 'full');
});
afterAll(async () => {
  await h?.close();
  await new Promise((r) => searx?.close(r));
});

describe('web_search_searxng over MCP', () => {
  it('is listed, read-only, and answers from the configured SearXNG', async () => {
    const c = await mcpClient(`${h.url}/mcp`, { 'x-api-key': key });
    try {
      const tool = (await c.client.listTools()).tools.find((t) => t.name === 'web_search_searxng');
      expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
      expect(Object.keys((tool!.inputSchema.properties ?? {}) as object)).toEqual(
        expect.arrayContaining(['query', 'max_results']),
      );
      const r = await c.call('web_search_searxng', { query: 'herald launch', max_results: 3 });
      expect(r.isError ?? false).toBe(false);
      expect(JSON.parse(textOf(r))).toMatchObject({
        success: true,
        results: [{ title: 'Launch day', url: 'https://news.example/launch' }],
      });
      expect(queries.at(-1)).toBe('herald launch');
      status = 502;
      const failed = await c.call('web_search_searxng', { query: 'again' });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toMatch(/502/);
    } finally {
      status = 200;
      await c.close();
    }
  });
});
