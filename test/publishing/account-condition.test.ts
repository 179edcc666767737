// A documented error that is a state of the account (here Facebook's Page Publishing Authorization, 1404078) notes
// the connection while it stays connected: the connection status and the profile slice say so, and the next
// successful publish through that connection clears the note, but never a token-expiry warning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_NOTE_PREFIX } from '../../src/connections/store.ts';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect, fault } from '../connections/helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date() });
});
afterAll(async () => h?.close());

const connection = async (u: TestUser) => (await h.ctx.connectionStore.list(u.workspaceId, 'facebook'))[0]!;
const status = async (u: TestUser) =>
  (await h.req({ method: 'GET', url: '/unified/oauth/token?platform=facebook', headers: asUser(u) })).json().results
    .facebook as { success: boolean; message: string };

async function publish(u: TestUser, text: string) {
  const profiles = (
    await h.req({ method: 'GET', url: '/unified/user-profiles/?platforms=facebook', headers: asUser(u) })
  ).json();
  const page = (profiles.facebook.pages as { page_id: string }[])[0]!.page_id;
  const res = await h.req({
    method: 'POST',
    url: '/unified/post/text',
    headers: asUser(u),
    payload: { platforms: ['facebook'], default_text: text, facebook: { facebook_page_ids: [page] } },
  });
  // One network: the answer is that network's result itself.
  return res.json() as { success: boolean; error?: string; message: string };
}

describe('an account condition at the network', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await h.signup();
    await connect(h, u, 'facebook');
  });

  it('notes the connection (still connected) until a publish through it succeeds', async () => {
    await fault(h, {
      platform: 'facebook',
      operation: 'publish',
      fault: 'error',
      error: 'publishing_authorization',
      times: 1,
    });
    const refused = await publish(u, 'Refused until the Page is authorized');
    expect(refused).toMatchObject({ success: false, error: 'PERMISSION_DENIED' });

    const noted = await connection(u);
    expect(noted.status).toBe('connected');
    expect(noted.statusReason).toMatch(
      new RegExp(`^${ACCOUNT_NOTE_PREFIX}Facebook requires Page Publishing Authorization`),
    );
    const shown = await status(u);
    expect(shown.success).toBe(true);
    expect(shown.message).toContain(
      'The last publish was refused: Facebook requires Page Publishing Authorization for this Page',
    );
    const profiles = (
      await h.req({ method: 'GET', url: '/unified/user-profiles/?platforms=facebook', headers: asUser(u) })
    ).json();
    expect(profiles.facebook.connection).toMatchObject({
      status: 'connected',
      needs_reconnect: false,
      status_reason: noted.statusReason,
    });

    expect(await publish(u, 'Authorized now')).toMatchObject({ success: true });
    expect((await connection(u)).statusReason).toBeNull();
    expect((await status(u)).message).not.toContain('refused');
  });

  it('does not note the connection for an error about the post itself', async () => {
    await fault(h, { platform: 'facebook', operation: 'publish', fault: 'error', error: 'duplicate_post', times: 1 });
    expect(await publish(u, 'A duplicate')).toMatchObject({ success: false, error: 'CONTENT_REJECTED' });
    expect((await connection(u)).statusReason).toBeNull();
  });

  it('leaves a token-expiry warning in place after a successful publish', async () => {
    const warning =
      'Facebook issued no refresh token to this app: the connection works until 2030-01-01T00:00:00.000Z; reconnect before then.';
    await h.ctx.connectionStore.setStatusReason((await connection(u)).id, warning);
    expect(await publish(u, 'Published while warned')).toMatchObject({ success: true });
    expect((await connection(u)).statusReason).toBe(warning);
    expect((await status(u)).message).toContain('reconnect before then');
  });
});
