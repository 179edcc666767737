// Setting up what a page test needs through Herald's own API, as the signed-in member of the browser context (its
// session cookie, a CSRF token from GET /auth/csrf), and the sandbox's seeding of comments and numbers.
import { expect, type Page } from '@playwright/test';

export interface Api {
  workspaceId: string;
  get(url: string): Promise<unknown>;
  send(method: 'POST' | 'PATCH' | 'DELETE', url: string, data?: unknown): Promise<unknown>;
}

export async function apiAs(page: Page): Promise<Api> {
  const base = { 'X-Herald-Client': 'web' };
  const csrf = ((await (await page.request.get('/auth/csrf', { headers: base })).json()) as { csrf_token: string })
    .csrf_token;
  const workspaces = (await (await page.request.get('/workspaces', { headers: base })).json()) as { id: string }[];
  const workspaceId = workspaces[0]!.id;
  const headers = { ...base, 'X-Workspace-Id': workspaceId, 'X-CSRF-Token': csrf };
  const check = async (res: Awaited<ReturnType<Page['request']['get']>>) => {
    expect(res.status(), `${res.url()}: ${await res.text()}`).toBeLessThan(300);
    return res.json();
  };
  return {
    workspaceId,
    get: async (url) => check(await page.request.get(url, { headers })),
    send: async (method, url, data) => check(await page.request.fetch(url, { method, headers, data })),
  };
}

/** Connects the sandbox's Bluesky with a handle and an app password (no consent page for Bluesky). */
export async function connectBluesky(api: Api, handle = 'e2e.sandbox'): Promise<void> {
  await api.send('POST', '/unified/oauth/url', {
    platform: ['bluesky'],
    handle,
    app_password: 'abcd-efgh-ijkl-mnop',
  });
}

/** Publishes a text post to Bluesky now and gives its post id. */
export async function publishToBluesky(api: Api, text: string): Promise<string> {
  const res = (await api.send('POST', '/unified/post/text', { platforms: ['bluesky'], default_text: text })) as {
    post: { post_id: string };
  };
  return res.post.post_id;
}

/** Gives a published post comments and numbers on its simulated network (POST /sandbox/_seed, loopback only). */
export async function seed(
  page: Page,
  body: { platform: string; post_id: string; comments?: { text: string; author_name: string }[]; metrics?: object },
) {
  const res = await page.request.post('/sandbox/_seed', { data: body });
  expect(res.status(), await res.text()).toBeLessThan(300);
}
