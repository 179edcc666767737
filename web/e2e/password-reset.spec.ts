// Forgot password: the app asks for a reset mail, the mail links to the app's reset page, and the new password
// signs in.
import { expect, PASSWORD, test } from './fixtures.ts';
import { mailTo, pageLink } from './mail.ts';

test('forgot password → the mailed link → a new password that signs in', async ({ page, helpers }) => {
  const { email } = await helpers.signUp();
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // The URL changes before the page's chunk has rendered (the login page, with its own Email field, stays up
  // until then): wait for the page itself before filling its field.
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('status')).toHaveText(/a link to reset its password is on its way/);
  await helpers.checkA11y('the forgot-password page');

  const link = pageLink(await mailTo(email), 'reset-password');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await helpers.checkA11y('the reset-password page');
  await helpers.shot('reset-password');
  const fresh = `${PASSWORD} again`;
  await page.getByLabel('New password').fill(fresh);
  await page.getByRole('button', { name: 'Set the password' }).click();
  await expect(page.getByText('Your password is changed. Log in with it.')).toBeVisible();

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(fresh);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
});
