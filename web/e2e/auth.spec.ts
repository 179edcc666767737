// Signing up lands in the app signed in (by the httpOnly cookie: no token reaches page scripts); logging out ends
// the session and the pages behind login send the visitor to the login page.
import { expect, PASSWORD, test } from './fixtures.ts';

test('sign up → lands signed in on the composer, with the sandbox banner', async ({ page, helpers }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await helpers.checkA11y('the login page');
  await helpers.shot('login');
  await page.getByRole('link', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/signup/);
  await helpers.checkA11y('the sign-up page');
  await helpers.shot('signup');
  await helpers.signUp({ workspace: 'Browser tests' });
  await expect(page).toHaveURL(/\/compose$/);
  await expect(page.getByRole('note').filter({ hasText: 'Sandbox mode' })).toBeVisible();
  // The session is a cookie page scripts cannot read.
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === 'herald_session');
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe('Lax');
  expect(await page.evaluate(() => document.cookie)).not.toContain('herald_session');
  await helpers.checkA11y('the composer');
  await helpers.shot('compose-empty');
});

test('log out → back to the login page; the pages behind login ask to log in again', async ({ page, helpers }) => {
  const { email } = await helpers.signUp();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login/);
  expect((await page.context().cookies()).find((c) => c.name === 'herald_session')).toBeUndefined();
  await page.goto('/calendar');
  await expect(page).toHaveURL(/\/login\?next=%2Fcalendar$/);
  // Logging in again returns to the page asked for.
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/calendar$/);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
});
