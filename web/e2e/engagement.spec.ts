// The inbox and analytics: a published post gets a comment and numbers on its (simulated) network; the inbox shows
// the comment unread under its post and sends a reply; analytics counts the post and charts its numbers.
import { expect, test } from './fixtures.ts';
import { apiAs, connectBluesky, publishToBluesky, seed } from './seed.ts';

test('a seeded comment in the inbox → reply in line → analytics shows the post', async ({ page, helpers }) => {
  await helpers.signUp({ workspace: 'Engagement tests' });
  const api = await apiAs(page);
  await connectBluesky(api);
  const postId = await publishToBluesky(api, 'Our autumn menu is here: pumpkin soup and apple tart.');
  await seed(page, {
    platform: 'bluesky',
    post_id: postId,
    comments: [{ text: 'Is the soup vegan?', author_name: 'Zed Quinn' }],
    metrics: { likes: 7, impressions: 120 },
  });
  await api.get('/unified/posts?refresh_stats=true');

  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Inbox' }).click();
  await page.getByRole('button', { name: 'Check for new comments' }).click();
  const thread = page.getByRole('article').filter({ hasText: 'Our autumn menu is here' });
  await expect(thread.getByText('Is the soup vegan?')).toBeVisible();
  await expect(thread.getByText('1 unread')).toBeVisible();
  await expect(thread.getByRole('link', { name: 'Open the post' })).toHaveAttribute('href', /\/sandbox\/bluesky\//);
  await helpers.checkA11y('the inbox');
  await helpers.shot('inbox');

  await thread.getByRole('button', { name: 'Reply to Zed Quinn' }).click();
  await thread.getByLabel('Reply to Zed Quinn').fill('Yes, it is vegan.');
  await helpers.checkA11y('the inbox with a reply form');
  await thread.getByRole('button', { name: 'Send reply' }).click();
  await expect(thread.locator('.replies').getByText('Yes, it is vegan.')).toBeVisible();
  // Replying marks the thread read, the reply included.
  await expect(thread.getByText('1 unread')).toBeHidden();
  // This thread's own state, not the page's total: the sandbox's Bluesky account is shared by the suite's
  // workspaces, so other specs' posts (and their first comments) are in this inbox too.
  await expect(thread.getByRole('button', { name: 'Mark as read' })).toBeHidden();
  await helpers.shot('inbox-replied');

  await nav.getByRole('link', { name: 'Analytics' }).click();
  const perNetwork = page.getByRole('table', { name: 'Per network (all stored posts)' });
  await expect(perNetwork.getByRole('row', { name: /Bluesky/ })).toContainText('7');
  await expect(page.getByRole('figure', { name: /Likes per network/ })).toBeVisible();
  // The chart's text alternative: its numbers as a table.
  const figure = page.getByRole('figure', { name: /Likes per network/ });
  await figure.getByText('Show the figures as a table').click();
  await expect(figure.getByRole('table').getByRole('row').last()).toContainText('7');
  await expect(page.locator('.chart canvas').first()).toBeVisible();
  await helpers.checkA11y('analytics');
  await helpers.shot('analytics');
});
