// The Import page: the template link, a CSV with one bad row checked row by row (the report names the row, the
// column and the message; a list at 390 px), an all-or-nothing import refused for that row, then the valid rows
// imported and shown, and the posts on the Posts page.
import { expect, test } from './fixtures.ts';
import { apiAs, connectBluesky } from './seed.ts';

const daysAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');

test('check a CSV with one bad row, see the report, import the valid rows, see the posts', async ({
  page,
  helpers,
}) => {
  await helpers.signUp({ workspace: 'Import tests' });
  await connectBluesky(await apiAs(page));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Posts' }).click();
  await page.getByRole('link', { name: 'Import a file' }).click();
  await expect(page).toHaveURL(/\/import$/);
  await expect(page.getByRole('heading', { name: 'Import', level: 1 })).toBeVisible();

  // The template is the import's header, every column.
  const template = page.getByRole('link', { name: 'Download the template (CSV)' });
  await expect(template).toHaveAttribute('download', 'herald-import-template.csv');
  const download = page.waitForEvent('download');
  await template.click();
  const header = await (await download).createReadStream().then(async (stream) => {
    let text = '';
    for await (const chunk of stream) text += chunk;
    return text;
  });
  expect(header.split('\r\n')[0]).toMatch(/^text,networks,time,queue,media_urls,draft,/);

  const csv = [
    'text,networks,time',
    `First imported post,bluesky,${daysAhead(2)}`,
    `A post for nowhere,myspace,${daysAhead(2)}`,
    `"Second imported post, with a comma",bluesky,${daysAhead(3)}`,
  ].join('\r\n');
  await page.getByLabel('File (CSV or JSON lines)').setInputFiles({
    name: 'posts.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  const report = page.getByRole('region', { name: 'The check' });
  await expect(report.getByText('3 rows: 2 valid, 1 with errors.')).toBeVisible();
  const bad = report.getByRole('row').filter({ hasText: 'myspace' });
  await expect(bad.getByRole('rowheader')).toContainText('3');
  await expect(bad.getByRole('cell').first()).toContainText('networks');
  await helpers.checkA11y('the import report');
  await helpers.shot('import-report');

  // All or nothing: the bad row refuses the file, nothing is written.
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: /Row 3/ })).toBeVisible();

  // On a phone the report's table becomes a list.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(bad).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await helpers.checkA11y('the import report on a phone');
  await helpers.shot('phone-import');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('radio', { name: 'Only the valid rows' }).check();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const result = page.getByRole('region', { name: 'Imported' });
  await expect(result.getByText('2 rows imported; 2 scheduled-post credits reserved.')).toBeVisible();
  for (const row of ['2', '4'])
    await expect(
      result.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^(Row )?${row}$`) }) }),
    ).toContainText(/Bluesky.*Scheduled for/);
  await helpers.checkA11y('the import result');
  await helpers.shot('import');

  await result.getByRole('link', { name: 'Open Posts' }).click();
  await expect(page.getByText('First imported post').first()).toBeVisible();
  await expect(page.getByText('Second imported post, with a comma').first()).toBeVisible();
  await expect(page.getByText('A post for nowhere')).toHaveCount(0);
});
