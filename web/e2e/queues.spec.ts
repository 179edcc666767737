// Queues: create a queue and give it a weekly time, see its next free times, add a post to it from the composer
// (which names the slot it took), and see the queue with the post waiting and that slot no longer free.
import { expect, test } from './fixtures.ts';
import { apiAs, connectBluesky } from './seed.ts';

test('create a queue with a time, add a post to it from the composer, see it take the next slot', async ({
  page,
  helpers,
}) => {
  await helpers.signUp({ workspace: 'Queue tests' });
  await connectBluesky(await apiAs(page));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Queues' }).click();
  await expect(page.getByRole('region', { name: 'Queue default' })).toBeVisible();

  await page.getByLabel('Name').fill('mornings');
  await page.getByRole('button', { name: 'Create a queue' }).click();
  const queue = page.getByRole('region', { name: 'Queue mornings' });
  await expect(queue).toBeVisible();
  // A new queue starts with the default queue's times; it gets a Saturday one besides.
  await queue.getByLabel('Day', { exact: true }).selectOption('saturday');
  await queue.getByLabel('Time', { exact: true }).fill('08:15');
  await queue.getByRole('button', { name: 'Add a time' }).click();
  await expect(queue.getByRole('button', { name: 'Remove Saturday 08:15' })).toBeVisible();
  const next = queue.getByRole('listitem').filter({ has: page.locator('time') });
  await expect(next).toHaveCount(3);
  const first = (await next.first().textContent()) ?? '';
  await expect(queue.getByText(/^0 posts waiting/)).toBeVisible();
  await helpers.checkA11y('the queues page');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compose' }).click();
  await page.getByRole('checkbox', { name: 'Bluesky' }).check();
  await page.getByLabel('Text', { exact: true }).fill('Queued from the browser suite');
  await page.getByRole('combobox', { name: 'Queue', exact: true }).selectOption('mornings');
  await page.getByRole('button', { name: 'Add to queue' }).click();
  const results = page.getByRole('status').filter({ hasText: 'Result' });
  await expect(results.getByText('Scheduled')).toBeVisible();
  await expect(results.getByText(/^Queue mornings: /)).toBeVisible();
  await helpers.shot('compose-queued');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Queues' }).click();
  await expect(queue.getByText(/^1 post waiting/)).toBeVisible();
  // The slot the post took is no longer free: the next free times start after it.
  await expect(next).toHaveCount(3);
  await expect(next.first()).not.toHaveText(first);
  await helpers.checkA11y('the queues page with a post waiting');
  await helpers.shot('queues');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(queue).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await helpers.checkA11y('the queues page on a phone');
  await helpers.shot('phone-queues');
});
