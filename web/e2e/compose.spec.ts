// Connect a network through its (simulated) consent page and back, then compose a post and schedule it: the
// composer counts with the network's rule and the result says the post is scheduled.
import { expect, test } from './fixtures.ts';

/** A wall time `days` ahead, as a datetime-local input takes it. */
function daysAhead(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T10:30`;
}

test('connect Threads in sandbox mode, compose, schedule, see it on the calendar', async ({ page, helpers }) => {
  await helpers.signUp({ workspace: 'Compose tests' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connections' }).click();
  await expect(page).toHaveURL(/\/connections$/);
  const connect = page.getByRole('button', { name: 'Connect Threads' });
  await expect(connect).toBeVisible();
  await helpers.checkA11y('the connections page');
  await helpers.shot('connections');

  // The sandbox's consent page stands in for the network's; approving comes back to the app.
  await connect.click();
  await expect(page.getByRole('heading', { name: 'Threads sandbox' })).toBeVisible();
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page).toHaveURL(/\/connections\?platform=threads&status=success/);
  await expect(page.getByText('Threads is connected.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Disconnect Threads' })).toBeVisible();
  await helpers.shot('connections-threads');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compose' }).click();
  await page.getByRole('checkbox', { name: 'Threads' }).check();
  const text = 'Hello from the browser suite 👋🏽';
  await page.getByLabel('Text', { exact: true }).fill(text);
  // Threads counts in graphemes: the emoji with its skin tone is one.
  await expect(page.getByText(`${[...new Intl.Segmenter().segment(text)].length} / 500`)).toBeVisible();
  await page.getByLabel(/^Date and time/).fill(daysAhead(2));
  await helpers.checkA11y('the composer with a post');
  await helpers.shot('compose-threads');
  await page.getByRole('button', { name: 'Schedule' }).click();
  const results = page.getByRole('status').filter({ hasText: 'Threads' });
  await expect(results.getByText('Scheduled', { exact: true })).toBeVisible();
  await helpers.shot('compose-scheduled');

  // The calendar shows it where it was scheduled.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).click();
  await expect(page.getByText(`Threads · ${text}`).first()).toBeVisible();
  await helpers.checkA11y('the calendar');
  await helpers.shot('calendar');
});
