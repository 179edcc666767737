// Workspace settings: members and invitations (the invitation link shown once, revoked), the plan and its usage.
import { expect, test } from './fixtures.ts';

test('invite a member, see the link and the pending invitation, revoke it; plan and usage', async ({
  page,
  helpers,
}) => {
  const { email } = await helpers.signUp({ workspace: 'Settings tests' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  const members = page.getByRole('table', { name: 'Members' });
  await expect(members.getByRole('row', { name: new RegExp(email) })).toContainText('You');
  await expect(page.getByRole('table', { name: 'Plans' }).getByText('Current plan')).toBeVisible();

  await page.getByLabel('Email address').fill('new.member@example.test');
  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(page.locator('code.secret')).toContainText('/accept-invitation?token=');
  const invitation = page.getByRole('listitem').filter({ hasText: 'new.member@example.test' });
  await expect(invitation.getByText('Pending')).toBeVisible();
  await helpers.checkA11y('the settings with an invitation');
  await helpers.shot('settings-invitation');
  await invitation.getByRole('button', { name: 'Revoke the invitation of new.member@example.test' }).click();
  await expect(invitation.getByText('Revoked')).toBeVisible();
});
