// A connect link (auth_url) can be opened by someone other than who asked for it: the consent page
// and the page after it name the Herald workspace the account is being connected to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.ts';
import { authUrl } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date('2026-11-20T10:00:00Z') });
});
afterAll(async () => h?.close());

const NAME = '<b>Acme & "Co"</b>';
const ESCAPED = '&#60;b&#62;Acme &#38; &#34;Co&#34;&#60;/b&#62;';

describe('connect links name their workspace', () => {
  it('on the consent page and on the result page, HTML-escaped', async () => {
    const u = await h.signup({ workspace_name: NAME });
    const url = await authUrl(h, u, 'linkedin');
    const consent = await fetch(url);
    const page = await consent.text();
    expect(consent.status).toBe(200);
    expect(page).toContain(`the Herald workspace ${'&#34;'}${ESCAPED}${'&#34;'}`);
    expect(page).not.toContain('<b>Acme');
    // Approving (as the person who opened the link) lands on Herald's page, which says where the account went.
    const form = new URLSearchParams({
      pending: /name="pending" value="([^"]+)"/.exec(page)![1]!,
      user: 'someone-else',
      decision: 'approve',
    });
    const action = new URL(/<form method="post" action="([^"]+)"/.exec(page)![1]!, url);
    const done = await fetch(action, { method: 'POST', body: form, redirect: 'follow' });
    const result = await done.text();
    expect(result).toContain('data-status="success"');
    expect(result).toContain(`<p data-workspace>Herald workspace: <strong>${ESCAPED}</strong>`);
    expect(result).toContain(`to the Herald workspace &#34;${ESCAPED}&#34;`);
    expect(result).not.toContain('<b>Acme');
    // …and goes back to the web app's Connections page with the result, by itself and by a link.
    const back = /<a href="([^"]+)" data-return>/.exec(result)![1]!.replaceAll('&#38;', '&');
    const backUrl = new URL(back, h.url);
    expect(backUrl.pathname).toBe('/connections');
    expect(backUrl.searchParams.get('platform')).toBe('linkedin');
    expect(backUrl.searchParams.get('status')).toBe('success');
    expect(backUrl.searchParams.get('message')).toContain('Acme');
    expect(result).toContain('<meta http-equiv="refresh" content="1; url=/connections?');
  });

  it('a used or unknown state names no workspace', async () => {
    const u = await h.signup({ workspace_name: 'Private name' });
    const url = new URL(await authUrl(h, u, 'facebook'));
    url.searchParams.set('state', 'not-a-state-herald-issued');
    const page = await (await fetch(url)).text();
    expect(page).not.toContain('data-requested-for');
    expect(page).not.toContain('Private name');
  });
});
