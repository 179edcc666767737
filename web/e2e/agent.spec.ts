// The agent and approvals: with approval on (set in the settings), the agent's publish waits; its tool call shows as
// it runs, the held post is approved in line and published; the turn stays in the history.
import { expect, test } from './fixtures.ts';
import { apiAs, connectBluesky } from './seed.ts';

test('settings turn approval on → the agent holds a post → approve in line → published', async ({ page, helpers }) => {
  await helpers.signUp({ workspace: 'Agent tests' });
  await connectBluesky(await apiAs(page));
  const nav = page.getByRole('navigation', { name: 'Main' });

  await nav.getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Bakery on the corner');
  await page.getByRole('checkbox', { name: 'Hold what assistants do for approval' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(page.getByText(/AI credits/).first()).toBeVisible();
  await helpers.checkA11y('the settings');
  await helpers.shot('settings');

  await nav.getByRole('link', { name: 'Approvals' }).click();
  await expect(page.getByText('Nothing waits for approval')).toBeVisible();

  await nav.getByRole('link', { name: 'Agent' }).click();
  await expect(page.getByText('No conversation yet')).toBeVisible();
  await page.getByLabel('Message').fill('publish "Fresh bread at 7" to bluesky');
  await page.getByRole('button', { name: 'Send' }).click();
  const steps = page.getByRole('list', { name: 'Tools used' });
  await expect(steps.getByText('publish', { exact: true })).toBeVisible();
  await expect(steps.getByText('done', { exact: true })).toBeVisible();
  const held = page.getByRole('region', { name: 'This turn is waiting for your approval:' });
  await expect(held.getByText('Fresh bread at 7')).toBeVisible();
  await expect(held.getByText('Asked by the workspace agent')).toBeVisible();
  await helpers.checkA11y('the agent with a held post');
  await helpers.shot('agent-held');
  await held.getByRole('button', { name: 'Approve' }).click();
  await expect(held.getByText('Published to Bluesky.')).toBeVisible();
  await helpers.shot('agent-approved');

  // Nothing waits any more; back on the agent's page, the turn is in the history (once).
  await nav.getByRole('link', { name: 'Approvals' }).click();
  await expect(page.getByText('Nothing waits for approval')).toBeVisible();
  await nav.getByRole('link', { name: 'Agent' }).click();
  const history = page.getByRole('list', { name: 'Earlier conversation' });
  await expect(history.getByText('publish "Fresh bread at 7" to bluesky')).toHaveCount(1);
  await expect(page.getByRole('list', { name: 'This conversation' })).toHaveCount(0);
});

test('approvals page: approve one held post, reject another', async ({ page, helpers }) => {
  await helpers.signUp({ workspace: 'Approval tests' });
  const api = await apiAs(page);
  await connectBluesky(api);
  await api.send('PATCH', `/workspaces/${api.workspaceId}`, { tool_posts_need_approval: true });
  for (const text of ['Cider tasting at 6', 'Pie night on Thursday'])
    await api.send('POST', '/workspace-agent/website/chat', { text: `publish "${text}" to bluesky` });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Approvals' }).click();
  await expect(page.getByText('2 items')).toBeVisible();
  await helpers.checkA11y('the approvals page');
  await helpers.shot('approvals');
  const cider = page.getByRole('article').filter({ hasText: 'Cider tasting at 6' });
  await cider.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('status', { name: 'Decided on this page' })).toContainText('Published to Bluesky.');
  const pie = page.getByRole('article').filter({ hasText: 'Pie night on Thursday' });
  await pie.getByRole('button', { name: 'Reject' }).click();
  // Rejecting asks for an optional reason first; the form's own Reject confirms.
  await pie.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByRole('status', { name: 'Decided on this page' })).toContainText('Rejected');
  await expect(page.getByText('Nothing waits for approval')).toBeVisible();
});
