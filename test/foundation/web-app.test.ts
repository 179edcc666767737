// The web app served at `/`: page loads get index.html (also on paths the API does not have), the build's assets are
// cached for good, every app answer has a strict Content-Security-Policy, and the API keeps answering programs.
// Without a build, `/` explains how to make one; HERALD_WEB_DIR=off turns the app off.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { appPageUrl, webAppStartupMessage, webAppState } from '../../src/config/web.ts';
import { appContentSecurityPolicy } from '../../src/transports/rest/web-app.ts';
import { and, desc, eq } from '../../src/db/orm.ts';
import { mailOutbox } from '../../src/db/schema.ts';
import { bearer, createHarness, type Harness } from '../helpers/harness.ts';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-3f2a.js"></script></head></html>';
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let dist: string;
let h: Harness;
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'herald-web-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'app-3f2a.js'), 'console.log("app")');
  // The build writes brotli and gzip copies beside its text files (web/vite.config.ts).
  writeFileSync(join(dist, 'assets', 'app-3f2a.js.br'), brotliCompressSync('console.log("app")'));
  writeFileSync(join(dist, 'assets', 'app-3f2a.js.gz'), gzipSync('console.log("app")'));
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // GET /webhooks is both an API route and one of the app's page paths.
  h = await createHarness({ env: { HERALD_WEB_DIR: dist } });
});
afterAll(async () => {
  await h?.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = HTML) => h.req({ method: 'GET', url, headers });

describe('the built app', () => {
  it('/ answers index.html with a strict Content-Security-Policy, revalidated on each load', async () => {
    for (const headers of [HTML, {}]) {
      const res = await get('/', headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
    }
  });

  it("a page load of one of the app's pages, or of a path the API does not have, gets the app", async () => {
    for (const url of ['/login', '/compose', '/reset-password?token=abc', '/settings/members', '/no/such/page']) {
      const res = await get(url);
      expect([url, res.statusCode, res.body]).toEqual([url, 200, INDEX]);
      expect(res.headers['content-security-policy']).toBeDefined();
    }
  });

  it('a page path the API also has: a page load gets the app, a program the API (and its 401)', async () => {
    const load = await get('/webhooks');
    expect([load.statusCode, load.body]).toEqual([200, INDEX]);
    const api = await get('/webhooks', { accept: 'application/json' });
    expect(api.statusCode).toBe(401);
    expect(api.json()).toEqual({ detail: 'Not authenticated' });
  });

  it('programs still get the API: its routes, and the JSON 404 where it has none', async () => {
    expect((await get('/auth/me')).json()).toEqual({ detail: 'Not authenticated' });
    const missing = await get('/no/such/route', { accept: 'application/json' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Not Found' });
    const posted = await h.req({ method: 'POST', url: '/compose', headers: HTML, payload: {} });
    expect(posted.statusCode).toBe(404);
    expect(posted.json()).toEqual({ detail: 'Not Found' });
  });

  it('assets are cached for good; a missing one is an uncached JSON 404', async () => {
    const res = await get('/assets/app-3f2a.js', {});
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await get('/assets/app-0000.js', {});
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBeUndefined();
    expect(missing.json()).toEqual({ detail: 'Not Found' });
    expect((await get('/assets/../index.html', {})).statusCode).not.toBe(200);
  });

  it("the build's compressed copy goes to a browser that accepts it, the plain file to one that does not", async () => {
    const br = await get('/assets/app-3f2a.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log("app")');
    const gz = await get('/assets/app-3f2a.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe('console.log("app")');
    const plain = await get('/assets/app-3f2a.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("app")');
  });

  it("the build's top-level files are served", async () => {
    const res = await get('/favicon.svg', { accept: 'image/*' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });
});

describe('without the app', () => {
  it('missing build: / explains in plain text, and serve prints one line', async () => {
    const dir = join(dist, 'absent');
    const other = await createHarness({ env: { HERALD_WEB_DIR: dir } });
    try {
      const res = await other.req({ method: 'GET', url: '/', headers: HTML });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toContain('npm run build:web');
      expect((await other.req({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(404);
      const line = webAppStartupMessage(webAppState(other.config));
      expect(line).toContain('npm run build:web');
      expect(line).not.toContain('\n');
    } finally {
      await other.close();
    }
  });

  it('HERALD_WEB_DIR=off: no app, no links to it, and / says so', async () => {
    const other = await createHarness({ env: { HERALD_WEB_DIR: 'off' } });
    try {
      const res = await other.req({ method: 'GET', url: '/', headers: HTML });
      expect(res.body).toContain('HERALD_WEB_DIR=off');
      expect((await other.req({ method: 'GET', url: '/compose', headers: HTML })).statusCode).toBe(404);
      expect(webAppStartupMessage(webAppState(other.config))).toBeUndefined();
      expect(appPageUrl(other.config, 'reset-password', 't')).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

describe('mail', () => {
  const newestMail = async (to: string, kind: string) => {
    const [mail] = await h.ctx.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, to), eq(mailOutbox.kind, kind)))
      .orderBy(desc(mailOutbox.createdAt));
    return mail?.body ?? '';
  };

  it("password reset and invitation mails link to the app's pages with their token", async () => {
    const u = await h.signup();
    await h.req({ method: 'POST', url: '/auth/forgot-password', payload: { email: u.email } });
    await h.ctx.passwordReset.settled();
    const reset = await newestMail(u.email, 'password_reset');
    const token = /Reset token: (\S+)/.exec(reset)?.[1];
    expect(reset).toContain(`Choose a new password here: ${h.url}/reset-password?token=${token}`);
    const invited = 'invited-web@example.test';
    const res = await h.req({
      method: 'POST',
      url: `/workspaces/${u.workspaceId}/invitations`,
      headers: bearer(u.token),
      payload: { email: invited },
    });
    expect(res.statusCode).toBe(201);
    const invitation = await newestMail(invited, 'workspace_invitation');
    expect(invitation).toContain(`${h.url}/accept-invitation?token=${res.json().token}`);
  });
});

describe('settings', () => {
  it('mail links point at the app pages; the policy admits the media storage origin', () => {
    const config = loadConfig({ HERALD_PUBLIC_URL: 'https://herald.example.org' });
    expect(appPageUrl(config, 'reset-password', 'a/b')).toBe('https://herald.example.org/reset-password?token=a%2Fb');
    expect(appContentSecurityPolicy(config)).toContain("img-src 'self' data: blob:;");
    const s3 = loadConfig({
      HERALD_PUBLIC_URL: 'https://herald.example.org',
      HERALD_STORAGE: 's3',
      HERALD_S3_BUCKET: 'b',
      HERALD_S3_ACCESS_KEY_ID: 'k',
      HERALD_S3_SECRET_ACCESS_KEY: 's',
      HERALD_S3_PUBLIC_URL: 'https://cdn.example.net/media/',
    });
    expect(appContentSecurityPolicy(s3)).toContain("img-src 'self' data: blob: https://cdn.example.net;");
    expect(appContentSecurityPolicy(s3)).toContain("media-src 'self' blob: https://cdn.example.net;");
  });
});
