// The security matrix's cookie-session column, driven by the route catalogue (test/helpers/security-routes.ts, which
// the catalog test keeps complete): every state-changing route refuses a browser session cookie without the CSRF
// proof; a cookie of another workspace's member reaches nothing of this workspace; the MCP endpoints take no cookie.
import { expect, it } from 'vitest';
import { type BrowserSession, browserLogin } from './browser.ts';
import type { Harness, TestUser } from './harness.ts';
import type { MatrixEntry } from './security-routes.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Browsers {
  owner: TestUser;
  ownerBrowser: BrowserSession;
  strangerBrowser: BrowserSession;
}

export function cookieSessionColumn(getHarness: () => Harness, routes: Readonly<Record<string, MatrixEntry>>): void {
  // One owner and one stranger for the whole column: a refused request changes nothing, so they can be shared.
  let browsers: Promise<Browsers> | undefined;
  const signedIn = () => {
    browsers ??= (async () => {
      const h = getHarness();
      const owner = await h.signup();
      const stranger = await h.signup();
      return { owner, ownerBrowser: await browserLogin(h, owner), strangerBrowser: await browserLogin(h, stranger) };
    })();
    return browsers;
  };
  const made = new Map<string, Promise<string>>();

  const request = async (key: string, entry: MatrixEntry, b: Browsers, headers: Record<string, string>) => {
    const h = getHarness();
    const method = key.split(' ')[0] as Method;
    if (entry.matrix !== 'workspace' && entry.matrix !== 'account' && entry.matrix !== 'admin')
      throw new Error(`${key}: no cookie request for a ${entry.matrix} route`);
    let url: string;
    if (entry.matrix === 'workspace' && typeof entry.url === 'function') {
      const prepare = entry.prepare;
      if (prepare && !made.has(key)) made.set(key, prepare(h, b.owner));
      url = entry.url(b.owner, (await made.get(key)) ?? '');
    } else url = typeof entry.url === 'function' ? entry.url(b.owner, '') : entry.url;
    const payload =
      typeof entry.payload === 'function' ? (entry.payload as (u: TestUser) => unknown)(b.owner) : entry.payload;
    return h.req({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
  };

  for (const [key, entry] of Object.entries(routes)) {
    const method = key.split(' ')[0] as Method;
    const sessionRoute = entry.matrix === 'workspace' || entry.matrix === 'account' || entry.matrix === 'admin';
    if (sessionRoute && method !== 'GET') {
      it(`${key}: the session cookie without X-CSRF-Token → 403, before the route acts`, async () => {
        const b = await signedIn();
        const res = await request(
          key,
          entry,
          b,
          b.ownerBrowser.headers({ csrf: false, workspaceId: b.owner.workspaceId }),
        );
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toEqual({ detail: 'CSRF token missing or invalid' });
      });
    }
    const oneWorkspace = entry.matrix === 'workspace' || (entry.matrix === 'account' && !entry.noWorkspace);
    if (oneWorkspace) {
      it(`${key}: another workspace's member's cookie (with its CSRF token) → 403`, async () => {
        const b = await signedIn();
        const res = await request(key, entry, b, b.strangerBrowser.headers({ workspaceId: b.owner.workspaceId }));
        expect(res.statusCode, res.body).toBe(403);
      });
    }
    if (entry.matrix === 'mcp') {
      it(`${key}: a session cookie is no MCP credential`, async () => {
        const b = await signedIn();
        const res = await getHarness().req({
          method: 'POST',
          url: entry.url,
          headers: {
            ...b.ownerBrowser.headers(),
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
          },
          payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_accounts', arguments: {} } },
        });
        if (entry.endpoint === 'web') expect(res.statusCode).toBe(401);
        else expect(res.json().result.isError).toBe(true);
      });
    }
  }
}
