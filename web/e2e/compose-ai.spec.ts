// The composer's AI help in sandbox mode, where Herald's built-in provider answers offline: copy written from an idea
// fills the text (and Threads' own text), the plan's AI credits left drop by 2 per network (5 for the image), and an image drawn from
// the text joins the post's media, and copy written from that image replaces the text.
import { expect, test } from './fixtures.ts';

test('write copy from an idea, draw an image from it, write copy from the image, paying AI credits', async ({
  page,
  helpers,
}) => {
  await helpers.signUp({ workspace: 'Compose AI tests' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connections' }).click();
  await page.getByRole('button', { name: 'Connect Threads' }).click();
  await expect(page.getByRole('heading', { name: 'Threads sandbox' })).toBeVisible();
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Threads is connected.')).toBeVisible();
  await page.getByRole('button', { name: 'Connect Bluesky' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Bluesky' });
  await dialog.getByLabel('Handle').fill('e2e.sandbox');
  await dialog.getByLabel('App password').fill('abcd-efgh-ijkl-mnop');
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Disconnect Bluesky' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compose' }).click();
  // The plan's AI credits, untouched yet.
  const credits = page.getByText(/^\d+ AI credits left this period$/);
  await expect(credits).toBeVisible();
  const before = Number((await credits.textContent())!.split(' ')[0]);
  const left = (n: number) => page.getByText(`${n} AI credits left this period`);
  await page.getByRole('checkbox', { name: 'Threads' }).check();
  await page.getByRole('checkbox', { name: 'Bluesky' }).check();
  await page.getByLabel('Idea').fill('Lighthouse keepers of Brittany share their winter stories at the harbour museum');
  const write = page.getByRole('button', { name: 'Write with AI · 2 credits per network (4)' });
  await write.click();

  // Bluesky has no text of its own: its copy becomes the common text; Threads' copy goes in its tab.
  const text = page.getByLabel('Text', { exact: true });
  await expect(text).toHaveValue(/Lighthouse/i);
  await expect(left(before - 4)).toBeVisible();
  await expect(page.getByText(/built-in provider/).first()).toBeVisible();
  await page.getByRole('tab', { name: /Threads/ }).click();
  await expect(page.getByLabel('Text for Threads')).toHaveValue(/Lighthouse/i);
  await page.getByRole('tab', { name: 'All networks' }).click();

  // An image drawn from the text (for the first chosen network) joins the post's media.
  await page.getByRole('button', { name: 'Image from the text · 5 credits' }).click();
  await expect(left(before - 9)).toBeVisible();
  const media = page.getByRole('group', { name: 'Media' });
  const image = media.getByRole('img', { name: 'AI image for Threads' });
  await expect(image).toBeVisible();
  // The card was drawn and is served from the workspace's storage.
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // Copy written from the post's image (the built-in provider reads its text and facts) replaces the text.
  await text.fill('');
  await page.getByRole('button', { name: 'Copy from the media · 2 credits per network (4)' }).click();
  await expect(left(before - 13)).toBeVisible();
  await expect(text).not.toHaveValue('');
  await helpers.checkA11y('the composer with AI copy and an image');
  // The header is sticky: a full-page shot taken scrolled would show it midway.
  await page.evaluate(() => window.scrollTo(0, 0));
  await helpers.shot('compose-ai');
});
