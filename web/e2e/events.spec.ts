// The events feed and webhooks: connecting a network (sandbox) and scheduling a post show as events on /notifications
// (the post's links to its timeline on /posts), whose mail preferences save; /webhooks creates an endpoint and shows its signing secret once — or, on a plan without
// webhooks, says so.
import { expect, test } from './fixtures.ts';

test('see an account.connected event, save mail preferences, create a webhook endpoint', async ({ page, helpers }) => {
  await helpers.signUp({ workspace: 'Events tests' });
  const nav = page.getByRole('navigation', { name: 'Main' });

  // Connecting Threads through the sandbox's consent page records account.connected.
  await nav.getByRole('link', { name: 'Connections' }).click();
  await page.getByRole('button', { name: 'Connect Threads' }).click();
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Threads is connected.')).toBeVisible();

  // A scheduled post records post.scheduled, which links to the post's timeline.
  await nav.getByRole('link', { name: 'Compose' }).click();
  await page.getByRole('checkbox', { name: 'Threads' }).check();
  await page.getByLabel('Text', { exact: true }).fill('A post with a story');
  await page.getByLabel(/^Date and time/).fill(`${new Date().getUTCFullYear() + 1}-06-01T10:30`);
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Threads' }).getByText('Scheduled').first()).toBeVisible();

  await nav.getByRole('link', { name: 'Notifications' }).click();
  const row = page.getByRole('row', { name: /Account connected/ });
  await expect(row).toContainText('Threads');
  await expect(row.getByRole('link', { name: 'View the connection' })).toHaveAttribute(
    'href',
    '/connections?platform=threads',
  );
  await expect(page.getByText('That is every event.')).toBeVisible();
  await helpers.checkA11y('the notifications page');
  await helpers.shot('notifications');
  await page
    .getByRole('row', { name: /Post scheduled/ })
    .getByRole('link', { name: 'View the post' })
    .click();
  const story = page.getByRole('dialog', { name: 'What happened to this post' });
  await expect(story.getByRole('row', { name: /Threads/ })).toContainText('Scheduled');
  await helpers.checkA11y('the post timeline');
  await helpers.shot('post-timeline');
  await story.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/posts$/);
  await page.getByRole('button', { name: 'Timeline of the Threads post' }).click();
  await expect(story).toBeVisible();
  await page.keyboard.press('Escape');
  await nav.getByRole('link', { name: 'Notifications' }).click();

  // Mail preferences: the defaults are what needs attention; one more type is saved with PUT.
  await expect(page.getByRole('checkbox', { name: 'Post failed' })).toBeChecked();
  const published = page.getByRole('checkbox', { name: 'Post published' });
  await expect(published).not.toBeChecked();
  await published.check();
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await expect(page.getByText('Preferences saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Post published' })).toBeChecked();

  await nav.getByRole('link', { name: 'Webhooks' }).click();
  const planNote = page.getByRole('note').filter({ hasText: 'Plan upgrade required' });
  const form = page.getByRole('form', { name: 'New endpoint' });
  await expect(planNote.or(form)).toBeVisible();
  if (await planNote.isVisible()) {
    await helpers.checkA11y('the webhooks page on a plan without webhooks');
    await helpers.shot('webhooks-plan');
    return;
  }
  await expect(page.getByText('No endpoints yet')).toBeVisible();
  // An IP literal (no name to resolve), created disabled so the suite sends nothing out.
  const url = 'https://93.184.215.14/herald-e2e';
  await form.getByLabel('URL').fill(url);
  await form.getByLabel('Description').fill('Browser suite');
  await form.getByRole('checkbox', { name: 'Post failed' }).check();
  await form.getByRole('checkbox', { name: 'Enabled' }).uncheck();
  await form.getByRole('button', { name: 'Create endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'The endpoint’s signing secret' });
  const secret = (await dialog.locator('code.secret').textContent()) ?? '';
  expect(secret).toMatch(/^whsec_/);
  await helpers.checkA11y('the new secret dialog');
  await helpers.shot('webhooks-secret');
  await dialog.getByRole('button', { name: 'I have copied it' }).click();

  const endpoint = page.getByRole('row', { name: new RegExp(url) });
  await expect(endpoint).toContainText('Post failed');
  await expect(endpoint).toContainText('Disabled');
  await expect(page.getByText(secret)).toHaveCount(0);
  await endpoint.getByRole('button', { name: `Deliveries of ${url}` }).click();
  const log = page.getByRole('dialog', { name: `Deliveries to ${url}` });
  await expect(log.getByText('Nothing delivered yet.')).toBeVisible();
  await log.getByRole('button', { name: 'Close' }).click();
  await helpers.checkA11y('the webhooks page');
  await helpers.shot('webhooks');

  // Rotating shows a new secret, once; deleting leaves none.
  await endpoint.getByRole('button', { name: `Rotate secret of ${url}` }).click();
  await endpoint.getByRole('button', { name: 'Rotate now' }).click();
  const rotated = (await dialog.locator('code.secret').textContent()) ?? '';
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(secret);
  await dialog.getByRole('button', { name: 'I have copied it' }).click();
  await page.setViewportSize({ width: 390, height: 800 });
  await helpers.checkA11y('the webhooks page at 390 px');
  await helpers.shot('webhooks-phone');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await helpers.checkA11y('the webhooks page at 390 px, dark');
  await helpers.shot('webhooks-phone-dark');
  await endpoint.getByRole('button', { name: `Delete ${url}` }).click();
  await endpoint.getByRole('button', { name: 'Delete for good' }).click();
  await expect(page.getByText('No endpoints yet')).toBeVisible();
});
