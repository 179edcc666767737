// The composer's first comment: counted by each network's comment limit (GET /unified/platforms), a network's own on
// its tab, disabled with the reason for a network that takes none (and left out of the common one), and posted under
// the published post, whose timeline (from its event) then shows the comment posted with a link to it.
import { expect, test } from './fixtures.ts';
import { apiAs, connectBluesky } from './seed.ts';

test('write a first comment, see its counters and a network that takes none, publish with it', async ({
  page,
  helpers,
}) => {
  await helpers.signUp({ workspace: 'First comment tests' });
  const api = await apiAs(page);
  await connectBluesky(api);
  // TikTok takes no first comment; its consent page is approved at once by the sandbox for this header.
  const auth = (await api.send('POST', '/unified/oauth/url', { platform: ['tiktok'] })) as {
    results: { tiktok: { auth_url: string } };
  };
  await page.request.get(auth.results.tiktok.auth_url, { headers: { 'X-Sandbox-Auto-Approve': '1' } });

  await page.goto('/compose');
  await page.getByRole('checkbox', { name: 'Bluesky' }).check();
  await page.getByRole('checkbox', { name: 'TikTok' }).check();
  await page.getByLabel('Text', { exact: true }).fill('A post with a first comment');
  const comment = 'The link: https://example.test/more';
  await page.getByLabel('First comment (optional)').fill(comment);
  // Bluesky's reply limit counts graphemes (300); TikTok says it takes none.
  await expect(page.locator('[data-first-comment-counter="Bluesky"]')).toContainText(`${comment.length} / 300`);
  await expect(page.getByText('TikTok: no first comment (the network does not take one).')).toBeVisible();
  await expect(page.getByText(/On Bluesky it is a reply in the post’s thread/)).toBeVisible();

  await page.getByRole('tab', { name: 'TikTok' }).click();
  const none = page.getByLabel('First comment on TikTok');
  await expect(none).toBeDisabled();
  await expect(
    page.getByText('TikTok does not take a first comment: nothing is posted under the post there.'),
  ).toBeVisible();
  await helpers.checkA11y('the composer with a first comment');
  await helpers.shot('compose-first-comment');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('tab', { name: 'All networks' }).click();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await helpers.shot('phone-compose-first-comment');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Published on Bluesky alone, the comment goes under the post.
  await page.getByRole('checkbox', { name: 'TikTok' }).uncheck();
  const answer = page.waitForResponse((r) => r.url().includes('/unified/post/text') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Publish now' }).click();
  const body = (await (await answer).json()) as {
    request?: unknown;
    post?: { first_comment?: { status: string } };
    results?: { post?: { first_comment?: { status: string } } }[];
  };
  const first = body.post?.first_comment ?? body.results?.[0]?.post?.first_comment;
  expect(first?.status).toMatch(/posted|pending/);
  await expect(page.getByRole('status').filter({ hasText: 'Result' }).getByText('Published')).toBeVisible();

  // The post's timeline (reached from its event) tells what became of the comment: posted, with a link to the reply.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notifications' }).click();
  await page
    .getByRole('row', { name: /Post published/ })
    .getByRole('link', { name: 'View the post' })
    .click();
  const story = page.getByRole('dialog', { name: 'What happened to this post' });
  await expect(story.getByText('First comment posted.')).toBeVisible();
  await expect(story.getByRole('link', { name: 'Open the comment' })).toHaveAttribute('href', /\/post\/[^/]+$/);
  await helpers.checkA11y('the post timeline with its first comment');
});
