// The library, inbox, analytics, keys, agent, approvals and settings pages on a 390 px wide phone, with data in
// them: nothing scrolls sideways (wide tables scroll in their own focusable box) and axe finds nothing serious.
import { expect, test } from './fixtures.ts';
import { apiAs, connectBluesky, publishToBluesky, seed } from './seed.ts';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('on a phone: the engagement, keys, agent and settings pages fit the width', async ({ page, helpers }) => {
  await helpers.signUp({ workspace: 'Phone pages' });
  const api = await apiAs(page);
  await connectBluesky(api);
  const postId = await publishToBluesky(api, 'A post to comment on, from a phone.');
  await seed(page, {
    platform: 'bluesky',
    post_id: postId,
    comments: [{ text: 'Nice!', author_name: 'Zed Quinn' }],
    metrics: { likes: 3 },
  });
  await api.send('POST', `/workspaces/${api.workspaceId}/api-keys`, { name: 'Phone key', scope: 'full' });
  await api.send('PATCH', `/workspaces/${api.workspaceId}`, { tool_posts_need_approval: true });
  await api.send('POST', '/workspace-agent/website/chat', { text: 'publish "From the phone" to bluesky' });
  await api.send('POST', '/workspace-agent/website/chat', { text: 'list accounts' });

  for (const path of ['/library', '/inbox', '/analytics', '/keys', '/agent', '/approvals', '/settings']) {
    await page.goto(path);
    await expect(page.locator('main h1')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    await helpers.checkA11y(`${path} on a phone`);
    await helpers.shot(`phone-page${path.replace('/', '-')}`);
  }
});
