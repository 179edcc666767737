// Connect a network through its (simulated) consent page and back, and another with its app-password form, then
// compose a post with a text of its own for one of them and schedule it: the composer counts with each network's
// rule, the result says the post is scheduled, and the calendar shows it.
import { expect, test } from './fixtures.ts';

/** A wall time `days` ahead, as a datetime-local input takes it. */
function daysAhead(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T10:30`;
}

test('connect Threads and Bluesky in sandbox mode, compose with an override, schedule, see it on the calendar', async ({
  page,
  helpers,
}) => {
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

  // Bluesky connects with a handle and an app password, in a dialog.
  await page.getByRole('button', { name: 'Connect Bluesky' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Bluesky' });
  await dialog.getByLabel('Handle').fill('e2e.sandbox');
  await dialog.getByLabel('App password').fill('abcd-efgh-ijkl-mnop');
  await helpers.checkA11y('the Bluesky dialog');
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Disconnect Bluesky' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compose' }).click();
  await page.getByRole('checkbox', { name: 'Threads' }).check();
  await page.getByRole('checkbox', { name: 'Bluesky' }).check();
  const text = 'Hello from the browser suite 👋🏽';
  await page.getByLabel('Text', { exact: true }).fill(text);
  // Both count in graphemes: the emoji with its skin tone is one.
  const graphemes = [...new Intl.Segmenter().segment(text)].length;
  await expect(page.getByText(`${graphemes} / 500`)).toBeVisible();
  await expect(page.getByText(`${graphemes} / 300`)).toBeVisible();
  // Threads gets a text of its own (Bluesky has no text override: it always takes the common text).
  const own = 'Hello, Threads';
  await page.getByRole('tab', { name: 'Threads' }).click();
  await page.getByLabel('Text for Threads').fill(own);
  await expect(page.getByText(`${own.length} / 500`)).toBeVisible();
  await expect(page.getByText(`${graphemes} / 300`)).toBeVisible();
  await page.getByLabel(/^Date and time/).fill(daysAhead(2));
  await helpers.checkA11y('the composer with a post');
  await helpers.shot('compose-threads');
  await page.getByRole('button', { name: 'Schedule' }).click();
  const results = page.getByRole('status').filter({ hasText: 'Threads' });
  for (const network of ['Threads', 'Bluesky'])
    await expect(
      results.getByRole('listitem').filter({ hasText: network }).getByText('Scheduled').first(),
    ).toBeVisible();
  await helpers.shot('compose-scheduled');

  // The calendar shows it where it was scheduled.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).click();
  await expect(page.getByText(`Threads · ${own}`).first()).toBeVisible();
  await expect(page.getByText(`Bluesky · ${text}`).first()).toBeVisible();
  await helpers.checkA11y('the calendar');
  await helpers.shot('calendar');
});
