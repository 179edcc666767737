// "Send for approval" end to end: a member composes a post and sends it for approval; the Approvals page names them
// (and tells them another member approves it); the owner approves it (it is published) and rejects a second one with
// a reason, which the events show.
import { expect, newEmail, PASSWORD, test } from './fixtures.ts';
import { apiAs, connectBluesky } from './seed.ts';

test('a member sends a post for approval → the owner sees who asked, approves one, rejects another with a reason', async ({
  page,
  browser,
  helpers,
}) => {
  await helpers.signUp({ workspace: 'Approval team' });
  const owner = await apiAs(page);
  await connectBluesky(owner);
  const memberEmail = newEmail();
  const invitation = (await owner.send('POST', `/workspaces/${owner.workspaceId}/invitations`, {
    email: memberEmail,
    role: 'member',
  })) as { token: string };

  const context = await browser.newContext();
  try {
    const member = await context.newPage();
    await member.goto(`/accept-invitation?token=${encodeURIComponent(invitation.token)}`);
    await member.getByRole('link', { name: 'Sign up' }).click();
    await member.getByLabel('Email').fill(memberEmail);
    await member.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await member.getByRole('button', { name: 'Sign up' }).click();
    // Signing up with the invitation joins the workspace (as invitation.spec.ts follows it).
    await expect
      .poll(async () => {
        const res = await member.request.get('/workspaces');
        return res.ok() ? (await res.json()).map((w: { name: string }) => w.name) : [];
      })
      .toContain('Approval team');
    await member.goto('/compose');
    await expect(member.getByRole('button', { name: 'Log out' })).toBeVisible();
    await member.getByRole('combobox', { name: 'Workspace' }).selectOption({ label: 'Approval team' });

    for (const text of ['Our spring opening hours, for review.', 'A draft announcement nobody agreed on.']) {
      await member.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compose' }).click();
      if (await member.getByRole('button', { name: 'New post' }).isVisible())
        await member.getByRole('button', { name: 'New post' }).click();
      await member.getByRole('checkbox', { name: 'Bluesky' }).check();
      await member.getByLabel('Text', { exact: true }).fill(text);
      await helpers.checkA11y('the composer before sending for approval');
      await member.getByRole('button', { name: 'Send for approval' }).click();
      const results = member.getByRole('status').filter({ hasText: 'Bluesky' });
      await expect(results.getByText('Sent for approval').first()).toBeVisible();
    }

    // The member sees what they sent, and that someone else approves it.
    await member.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Approvals' }).click();
    const mine = member.getByRole('article').filter({ hasText: 'Our spring opening hours' });
    await expect(mine.getByText(`Sent for approval by ${memberEmail}`)).toBeVisible();
    await expect(mine.getByText('another member approves it')).toBeVisible();
    await expect(mine.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await helpers.checkA11y('the approvals page of the member who sent the post');
  } finally {
    await context.close();
  }

  // The owner: who asked, approve one (published), reject the other with a reason.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Approvals' }).click();
  const first = page.getByRole('article').filter({ hasText: 'Our spring opening hours' });
  await expect(first.getByText(`Sent for approval by ${memberEmail}`)).toBeVisible();
  await helpers.checkA11y('the approvals page with posts sent for approval');
  await helpers.shot('approvals-sent');
  await first.getByRole('button', { name: 'Approve' }).click();
  const decisions = page.getByRole('status', { name: 'Decided on this page' });
  await expect(decisions.getByText(/Our spring opening hours/)).toBeVisible();
  await expect(decisions.locator('.page-note-ok')).toHaveCount(1);

  const second = page.getByRole('article').filter({ hasText: 'A draft announcement' });
  await second.getByRole('button', { name: 'Reject' }).click();
  await second.getByLabel(/^Reason/).fill('Not before the board meets.');
  await helpers.checkA11y('rejecting with a reason');
  await helpers.shot('approvals-reject');
  await second.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByRole('article').filter({ hasText: 'A draft announcement' })).toHaveCount(0);
  await expect(page.getByText('Nothing waits for approval')).toBeVisible();

  const events = (await owner.get('/events?limit=50')) as { events: { type: string; data: Record<string, unknown> }[] };
  const rejected = events.events.find((e) => e.type === 'post.rejected');
  expect(rejected?.data.reason).toBe('Not before the board meets.');
  expect(events.events.some((e) => e.type === 'post.approved')).toBe(true);
});
