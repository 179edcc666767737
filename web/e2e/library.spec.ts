// The media library: empty at first, an upload with its progress, the type filter, details, deletion.
import sharp from 'sharp';
import { expect, test } from './fixtures.ts';

test('upload an image, filter, see its details, delete it', async ({ page, helpers }) => {
  await helpers.signUp({ workspace: 'Library tests' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media library' }).click();
  await expect(page.getByText('No media yet')).toBeVisible();
  await helpers.checkA11y('the empty library');

  const png = await sharp({ create: { width: 2, height: 1, channels: 3, background: '#c80' } })
    .png()
    .toBuffer();
  await page.locator('input[type=file]').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByRole('region', { name: 'Uploads' }).getByText('Uploaded')).toBeVisible();
  const tile = page.getByRole('button', { name: /dot\.png/ });
  await expect(tile).toBeVisible();
  await expect(page.getByText('1 shown of 1')).toBeVisible();
  await helpers.checkA11y('the library with a file');
  await helpers.shot('library');

  await page.getByLabel('Type').selectOption('video');
  await expect(page.getByText('No media matches these filters')).toBeVisible();
  await page.getByLabel('Type').selectOption('all');

  await tile.click();
  const details = page.getByRole('dialog', { name: 'dot.png' });
  await expect(details.getByText('2 × 1')).toBeVisible();
  await expect(details.getByText('Image (png)')).toBeVisible();
  await helpers.checkA11y('the media details');
  await helpers.shot('library-details');
  await details.getByRole('button', { name: 'Delete' }).click();
  await details.getByRole('button', { name: /Delete for good/ }).click();
  await expect(page.getByText('No media yet')).toBeVisible();
});
