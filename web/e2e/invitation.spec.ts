// An invitation end to end: the owner invites from the browser (a cookie-authenticated write with its CSRF token),
// the invitee follows the mailed link to the app's accept page, signs up there and lands in the workspace.
import { expect, newEmail, PASSWORD, test } from './fixtures.ts';
import { mailTo, pageLink } from './mail.ts';

test('invite → the mailed link → sign up → a member of the workspace', async ({ page, browser, helpers }) => {
  await helpers.signUp({ workspace: 'Invited team' });
  // The owner's browser: its session cookie, and the CSRF token the app would send.
  const workspaces = await (await page.request.get('/workspaces')).json();
  const team = workspaces.find((w: { name: string }) => w.name === 'Invited team');
  const invitee = newEmail();
  const path = `/workspaces/${team.id}/invitations`;
  const refused = await page.request.post(path, { data: { email: invitee } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ detail: 'CSRF token missing or invalid' });
  const { csrf_token } = await (await page.request.get('/auth/csrf')).json();
  const invited = await page.request.post(path, { data: { email: invitee }, headers: { 'x-csrf-token': csrf_token } });
  expect(invited.status()).toBe(201);

  // The invitee, in a browser of their own.
  const context = await browser.newContext();
  try {
    const other = await context.newPage();
    await other.goto(pageLink(await mailTo(invitee), 'accept-invitation'));
    await expect(other.getByRole('heading', { name: 'Join a workspace' })).toBeVisible();
    await helpers.shot('accept-invitation');
    await other.getByRole('link', { name: 'Sign up' }).click();
    await other.getByLabel('Email').fill(invitee);
    await other.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await other.getByRole('button', { name: 'Sign up' }).click();
    // Signing up with the invitation joins the workspace at once.
    await expect
      .poll(async () => {
        const res = await other.request.get('/workspaces');
        return res.ok() ? (await res.json()).map((w: { name: string; role: string }) => `${w.name}: ${w.role}`) : [];
      })
      .toContain('Invited team: member');
    await other.goto('/compose');
    await expect(other.getByRole('button', { name: 'Log out' })).toBeVisible();
    await expect(other.getByRole('combobox', { name: 'Workspace' })).toContainText('Invited team');
  } finally {
    await context.close();
  }
});
