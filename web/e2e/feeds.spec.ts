// Feeds: follow a feed served by a loopback server of the spec (the suite's Herald may fetch from 127.0.0.1), check it
// now and see its items made into drafts; follow one that answers 500 and see its error on the page; follow one into
// a posting queue picked on the page and see its items take that queue's slots.
import { createServer, type Server } from 'node:http';
import { expect, test } from './fixtures.ts';
import { apiAs, connectBluesky } from './seed.ts';

const rss = (items: { title: string; link: string }[]) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Spec feed</title><link>https://example.test/</link><description>Items</description>
${items.map((i) => `<item><title>${i.title}</title><link>${i.link}</link><guid>${i.link}</guid></item>`).join('\n')}
</channel></rss>`;

let server: Server;
let base = '';

test.beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/news.xml') {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.end(
        rss([
          { title: 'Spring release notes', link: 'https://example.test/spring' },
          { title: 'Meet the team', link: 'https://example.test/team' },
        ]),
      );
    } else res.writeHead(500).end('failure');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('follow a feed, check it now and see its items as drafts; a failing feed shows its error', async ({
  page,
  helpers,
}) => {
  await helpers.signUp({ workspace: 'Feed tests' });
  await connectBluesky(await apiAs(page));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feeds' }).click();
  await expect(page.getByText('No feeds yet.', { exact: false })).toBeVisible();

  const follow = async (url: string) => {
    const form = page.getByRole('form', { name: 'Follow a feed' });
    await form.getByLabel('Feed URL').fill(url);
    await form.getByRole('checkbox', { name: 'Bluesky' }).check();
    await form.getByRole('checkbox', { name: /^Also post the items already/ }).check();
    await form.getByRole('button', { name: 'Follow' }).click();
    await expect(page.getByRole('rowheader', { name: new RegExp(url.replace(/[.?]/g, '\\$&')) })).toBeVisible();
  };

  const good = `${base}/news.xml`;
  await follow(good);
  await page.getByRole('button', { name: `Check now ${good}` }).click();
  await expect(page.getByText('Checked: 2 new item(s), 2 made into posts.')).toBeVisible();
  const goodRow = page.getByRole('row').filter({ hasText: good });
  await expect(goodRow.getByText('Active')).toBeVisible();
  await expect(goodRow.getByText(/Last checked/)).toBeVisible();

  const broken = `${base}/broken.xml`;
  await follow(broken);
  await page.getByRole('button', { name: `Check now ${broken}` }).click();
  await expect(page.getByText(/^The check failed: /)).toBeVisible();
  const brokenRow = page.getByRole('row').filter({ hasText: broken });
  await expect(brokenRow.getByText('Failing')).toBeVisible();
  await expect(brokenRow.getByText(/Last error .*500/)).toBeVisible();
  await helpers.checkA11y('the feeds page');
  await helpers.shot('feeds');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(brokenRow).toBeVisible();
  await helpers.checkA11y('the feeds page on a phone');
  await helpers.shot('phone-feeds');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The items became drafts (one per network), with the template's text: the title and the link.
  const drafts = JSON.stringify(await (await apiAs(page)).get('/unified/drafts'));
  expect(drafts).toContain('Spring release notes');
  expect(drafts).toContain('https://example.test/team');
});

test('follow a feed into a posting queue picked on the page: its items take the queue’s next free slots', async ({
  page,
  helpers,
}) => {
  await helpers.signUp({ workspace: 'Feed queue tests' });
  const api = await apiAs(page);
  await connectBluesky(api);
  await api.send('POST', '/unified/queues', { name: 'blog' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feeds' }).click();

  const form = page.getByRole('form', { name: 'Follow a feed' });
  const url = `${base}/news.xml`;
  await form.getByLabel('Feed URL').fill(url);
  await form.getByRole('checkbox', { name: 'Bluesky' }).check();
  await form.getByLabel('New items become').selectOption('queue');
  // The picker lists the workspace's queues, the default queue first.
  const picker = form.getByLabel('Queue', { exact: true });
  await expect(picker.getByRole('option')).toHaveText(['default', 'blog']);
  await picker.selectOption('blog');
  await form.getByRole('checkbox', { name: /^Also post the items already/ }).check();
  await helpers.checkA11y('the feeds page, queue mode');
  await form.getByRole('button', { name: 'Follow' }).click();

  const row = page.getByRole('row').filter({ hasText: url });
  await expect(row.getByText('Posts in the queue blog')).toBeVisible();
  await page.getByRole('button', { name: `Check now ${url}` }).click();
  await expect(page.getByText('Checked: 2 new item(s), 2 made into posts.')).toBeVisible();

  // Both items wait in the queue, in two successive slots; none became a draft.
  const queue = (await api.get('/unified/queues/blog')) as { data: { queue: { queued_posts: number } } };
  expect(queue.data.queue.queued_posts).toBe(2);
  const feeds = (await api.get('/unified/feeds')) as { feeds: { mode: string; queue: string | null }[] };
  expect(feeds.feeds).toEqual([expect.objectContaining({ mode: 'queue', queue: 'blog' })]);

  // Editing it shows the queue it follows; choosing the default queue saves it as the default (null).
  await page.getByRole('button', { name: `Edit feed ${url}` }).click();
  const edit = page.getByRole('form', { name: 'Edit feed' });
  await expect(edit.getByLabel('New items become')).toHaveValue('queue');
  await expect(edit.getByLabel('Queue', { exact: true })).toHaveValue('blog');
  await edit.getByLabel('Queue', { exact: true }).selectOption('default');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByText('Posts in the queue default')).toBeVisible();
  const after = (await api.get('/unified/feeds')) as { feeds: { queue: string | null }[] };
  expect(after.feeds[0]?.queue).toBeNull();
});
