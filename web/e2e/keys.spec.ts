// API keys: created with a network scope and an expiry, the secret shown once (and working), revoked (and refused).
import { expect, test } from './fixtures.ts';

test('create a Bluesky-only key, use it, revoke it', async ({ page, helpers, baseURL }) => {
  await helpers.signUp({ workspace: 'Key tests' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByText('No keys yet')).toBeVisible();
  // The connection instructions carry this server's addresses.
  await expect(page.getByText(`${baseURL}/mcp`, { exact: true })).toBeVisible();
  await expect(page.getByText(`${baseURL}/openapi/chatgpt-actions.json`, { exact: true })).toBeVisible();
  await helpers.checkA11y('the keys page');

  await page.getByLabel('Name').fill('Browser suite');
  await page.getByRole('checkbox', { name: 'All networks' }).uncheck();
  await page.getByRole('checkbox', { name: 'Bluesky' }).check();
  await page.getByLabel('Expires').selectOption('30');
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your new key' });
  const secret = (await dialog.locator('code.secret').textContent()) ?? '';
  expect(secret).toMatch(/^psk_live_/);
  await helpers.checkA11y('the new key dialog');
  await helpers.shot('keys-secret');

  const withKey = (key: string) =>
    page.request.get('/unified/oauth/token?platform=bluesky', { headers: { 'X-API-Key': key } });
  expect((await withKey(secret)).status()).toBe(200);
  await dialog.getByRole('button', { name: 'I have copied it' }).click();

  const row = page.getByRole('row', { name: /Browser suite/ });
  await expect(row).toContainText('Bluesky');
  await expect(row).not.toContainText(secret);
  await helpers.shot('keys');
  await row.getByRole('button', { name: 'Revoke Browser suite' }).click();
  await row.getByRole('button', { name: 'Revoke for good' }).click();
  await expect(page.getByText('No keys yet')).toBeVisible();
  expect((await withKey(secret)).status()).toBe(401);
});
