// The calendar and the posts page: a scheduled post dragged to another day is rescheduled (the API keeps the new
// time), a post the network refuses shows as failed with the network's reason on the calendar and in the history,
// and a published post is deleted from the posts page.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** A wall time `days` ahead (UTC, the new workspace's zone), as a datetime-local input takes it. */
function daysAhead(days: number, time = '10:30'): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T${time}`;
}

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

async function connectThreads(page: Page) {
  await nav(page, 'Connections');
  await page.getByRole('button', { name: 'Connect Threads' }).click();
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Threads is connected.')).toBeVisible();
}

async function compose(page: Page, text: string, action: 'Schedule' | 'Publish now', when?: string) {
  await nav(page, 'Compose');
  await page.getByRole('checkbox', { name: 'Threads' }).check();
  await page.getByLabel('Text', { exact: true }).fill(text);
  if (when) await page.getByLabel(/^Date and time/).fill(when);
  await page.getByRole('button', { name: action }).click();
  await expect(
    page
      .getByRole('status')
      .getByRole('listitem')
      .filter({ hasText: action === 'Schedule' ? 'Scheduled' : 'Published' }),
  ).toBeVisible();
}

/** The queue entries of the signed-in workspace, read through the API as the app does. */
async function queue(page: Page): Promise<{ scheduled_time: string; status: string; error_message: string | null }[]> {
  return page.evaluate(async () => {
    const res = await fetch('/unified/scheduled-posts', {
      headers: { 'x-workspace-id': localStorage.getItem('herald.workspace') ?? '' },
    });
    return ((await res.json()) as { data: { scheduled_posts: never[] } }).data.scheduled_posts;
  });
}

test('drag a scheduled post to the next day: it is rescheduled', async ({ page, helpers }) => {
  await helpers.signUp({ workspace: 'Calendar tests' });
  await connectThreads(page);
  const text = `Bake sale ${Date.now()}`;
  const when = daysAhead(2);
  await compose(page, text, 'Schedule', when);

  await nav(page, 'Calendar');
  // The month view (its six weeks always show the next days): drop the post on the next day's cell.
  const event = page.getByRole('button', { name: new RegExp(`Threads · ${text}`) });
  await expect(event).toBeVisible();
  const next = new Date(Date.parse(`${when}:00Z`) + 86_400_000).toISOString().slice(0, 10);
  // Both in view (the next day may start the next row, just under the post's).
  const cell = page.locator(`[data-date="${next}"]`).first();
  await cell.scrollIntoViewIfNeeded();
  await event.scrollIntoViewIfNeeded();
  const from = (await event.boundingBox())!;
  const to = (await cell.boundingBox())!;
  // Grab the post by its start (its time), where no text is selected, and drop it in the middle of the day.
  await page.mouse.move(from.x + 10, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 60, from.y + from.height / 2, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect(page.getByText('Rescheduled.')).toBeVisible();
  await helpers.checkA11y('the calendar after a reschedule');
  await helpers.shot('calendar-rescheduled');

  const [entry] = await queue(page);
  expect(entry!.scheduled_time).toBe(`${next}T10:30:00.000Z`);
});

test('a post the network refuses shows as failed with its reason, on the calendar and in the history', async ({
  page,
  helpers,
}) => {
  await helpers.signUp({ workspace: 'Failure tests' });
  await connectThreads(page);
  const text = `Refused ${Date.now()}`;
  await compose(page, text, 'Schedule', daysAhead(3));
  // The simulated Threads refuses the next publication: the app's token is revoked there.
  const fault = await page.evaluate(async () => {
    const res = await fetch('/sandbox/_faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'threads', operation: 'publish', fault: 'revoke', times: 1 }),
    });
    return res.status;
  });
  expect(fault).toBeLessThan(300);

  await nav(page, 'Calendar');
  await page.getByRole('button', { name: new RegExp(`Threads · ${text}`) }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Publish now' }).click();
  // The refusal is said in the dialog, in the network's words.
  await expect(dialog.getByRole('alert')).toContainText('Threads');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The calendar now shows the post as failed; opening it gives the reason.
  await page.getByRole('button', { name: new RegExp(`Threads · ${text}`) }).click();
  await expect(page.getByRole('dialog', { name: 'Threads · Failed' })).toBeVisible();
  await expect(page.getByRole('dialog').getByText('What the network said:')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry now' })).toBeVisible();
  await helpers.checkA11y('a failed post on the calendar');
  await helpers.shot('calendar-failed');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  await nav(page, 'Posts');
  const row = page.getByRole('row').filter({ hasText: text });
  await expect(row.getByText('Failed', { exact: true })).toBeVisible();
  const [entry] = await queue(page);
  expect(entry!.status).toBe('failed');
  await expect(row).toContainText(entry!.error_message!);
  await expect(row.getByRole('button', { name: 'Retry the Threads post' })).toBeVisible();
  await helpers.checkA11y('the posts page with a failed post');
  await helpers.shot('posts-failed');
});

test('a published post is deleted from the posts page', async ({ page, helpers }) => {
  await helpers.signUp({ workspace: 'Posts tests' });
  await connectThreads(page);
  const text = `Published ${Date.now()}`;
  await compose(page, text, 'Publish now');

  await nav(page, 'Posts');
  const row = page.getByRole('row').filter({ hasText: text });
  await expect(row.getByText('Published', { exact: true })).toBeVisible();
  await expect(row.getByRole('link', { name: 'Open' })).toHaveAttribute('href', /\S/);
  await helpers.checkA11y('the posts page');
  await helpers.shot('posts');
  await row.getByRole('button', { name: 'Delete the Threads post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this post from Threads?' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Deleted from the network.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: text })).toHaveCount(0);
});
