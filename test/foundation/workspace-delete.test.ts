// DELETE /workspaces/{id}: everything the workspace owns goes, its stored files included, and the
// network grants are revoked; other workspaces are untouched.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from '../../src/db/orm.ts';
import { storageDeletions } from '../../src/db/schema-accounts.ts';
import { asUser, bearer, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { joinWorkspace } from '../helpers/security-matrix.ts';
import { connect, sandboxState } from '../connections/helpers.ts';
import { filesUnder, mediaDirs, png, storagePath, upload } from '../media-routes/helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true });
});
afterAll(async () => h?.close());

const OWNED_TABLES = [
  'workspace_members',
  'workspace_invitations',
  'api_keys',
  'platform_connections',
  'oauth_states',
  'media',
  'upload_sessions',
  'posts',
  'drafts',
  'scheduled_posts',
  'credit_balances',
  'credit_ledger',
  'mail_outbox',
];

async function rowsOf(workspaceId: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of OWNED_TABLES) {
    const res = await h.ctx.database.db.execute(
      sql.raw(`select count(*)::int as n from ${table} where workspace_id = '${workspaceId}'`),
    );
    out[table] = Number((res as unknown as { rows: { n: number }[] }).rows[0]!.n);
  }
  return out;
}

async function stock(u: TestUser) {
  await connect(h, u, 'linkedin');
  const images = [];
  for (let i = 0; i < 2; i++) {
    const res = await upload(h, asUser(u), [
      { name: 'media_type', value: 'image' },
      { name: 'media', filename: 'pic.png', data: await png() },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    images.push(res.json());
  }
  const init = await h.req({
    method: 'POST',
    url: '/media/storage/init',
    headers: asUser(u),
    payload: { filename: 'v.mp4', file_size: 3 * 1024 * 1024, total_chunks: 3 },
  });
  expect(init.statusCode, init.body).toBe(200);
  const draft = await h.req({
    method: 'POST',
    url: '/unified/drafts',
    headers: asUser(u),
    payload: { post_type: 'text', platforms: ['linkedin'], default_text: 'later' },
  });
  expect(draft.statusCode, draft.body).toBeLessThan(300);
  const key = await h.createKey(u, 'full');
  await h.req({
    method: 'POST',
    url: `/workspaces/${u.workspaceId}/invitations`,
    headers: bearer(u.token),
    payload: { email: 'pending@example.test' },
  });
  return { images, uploadId: init.json().upload_id as string, key };
}

describe('DELETE /workspaces/{id}', () => {
  it('removes every row the workspace owns, its stored files and chunk directories, and revokes its network grants', async () => {
    const owner = await h.signup({ workspace_name: 'Doomed' });
    const member = await h.signup({ workspace_name: 'Member home' });
    await joinWorkspace(h, owner, member);
    const bystander = await h.signup();
    const kept = await upload(h, asUser(bystander), [
      { name: 'media_type', value: 'image' },
      { name: 'media', filename: 'keep.png', data: await png() },
    ]);
    const { images, uploadId, key } = await stock(owner);
    const dirs = mediaDirs(h);
    const objectFiles = () => filesUnder(dirs.objects).filter((f) => f.includes(owner.workspaceId));
    expect(objectFiles().length).toBeGreaterThanOrEqual(2);
    expect(existsSync(join(dirs.chunks, uploadId))).toBe(true);
    const before = await rowsOf(owner.workspaceId);
    for (const t of [
      'workspace_members',
      'workspace_invitations',
      'api_keys',
      'platform_connections',
      'media',
      'upload_sessions',
      'drafts',
    ])
      expect(before[t], t).toBeGreaterThan(0);
    const revokes = async () =>
      ((await sandboxState(h)).linkedin?.requests ?? []).filter((r) => r.path.endsWith('/oauth/v2/revoke')).length;
    const revokesBefore = await revokes();

    const res = await h.req({
      method: 'DELETE',
      url: `/workspaces/${owner.workspaceId}`,
      headers: bearer(owner.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Workspace "Doomed" deleted',
      deleted_media_files: 2,
      revoked_connections: 1,
    });

    expect(
      Object.values(await rowsOf(owner.workspaceId)).every((n) => n === 0),
      JSON.stringify(await rowsOf(owner.workspaceId)),
    ).toBe(true);
    expect(objectFiles()).toEqual([]);
    expect(existsSync(join(dirs.chunks, uploadId))).toBe(false);
    expect(await h.ctx.database.db.select().from(storageDeletions)).toEqual([]);
    for (const img of images)
      expect((await h.req({ method: 'GET', url: storagePath(img.public_url) })).statusCode).toBe(404);
    expect(await revokes()).toBeGreaterThan(revokesBefore);
    // Its key and sessions on it stop working; the member keeps their own workspace.
    expect(
      (await h.req({ method: 'GET', url: '/billing/usage', headers: { 'x-api-key': key } })).json().detail.error,
    ).toBe('APIKEY_INVALID');
    expect((await h.req({ method: 'GET', url: '/billing/usage', headers: asUser(owner) })).statusCode).toBe(403);
    const memberList = (await h.req({ method: 'GET', url: '/workspaces', headers: bearer(member.token) })).json();
    expect(memberList.map((w: { name: string }) => w.name)).toEqual(['Member home']);
    // Another workspace's media is untouched.
    expect((await h.req({ method: 'GET', url: storagePath(kept.json().public_url) })).statusCode).toBe(200);
    expect(
      (await h.req({ method: 'DELETE', url: `/workspaces/${owner.workspaceId}`, headers: bearer(owner.token) }))
        .statusCode,
    ).toBe(403);
  });

  it("deleting the user's only workspace leaves them with none until they create one", async () => {
    const u = await h.signup();
    expect(
      (await h.req({ method: 'DELETE', url: `/workspaces/${u.workspaceId}`, headers: bearer(u.token) })).statusCode,
    ).toBe(200);
    expect((await h.req({ method: 'GET', url: '/workspaces', headers: bearer(u.token) })).json()).toEqual([]);
    const created = await h.req({
      method: 'POST',
      url: '/workspaces',
      headers: bearer(u.token),
      payload: { name: 'Fresh start' },
    });
    expect(created.statusCode).toBe(201);
  });

  it('files left on the to-do list (a crash after the commit) are removed by the next sweep', async () => {
    const dir = join(mediaDirs(h).chunks, '11111111-1111-4111-8111-111111111111');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '1'), 'chunk');
    const u = await h.signup();
    const img = (
      await upload(h, asUser(u), [
        { name: 'media_type', value: 'image' },
        { name: 'media', filename: 'orphan.png', data: await png() },
      ])
    ).json();
    const key = storagePath(img.public_url).replace(/^\/storage\//, '');
    // The rows went with a workspace whose files were not removed yet.
    await h.ctx.database.db.execute(sql`delete from media where id = ${img.media_id}`);
    await h.ctx.database.db.insert(storageDeletions).values([
      { kind: 'object', ref: decodeURIComponent(key) },
      { kind: 'upload_dir', ref: '11111111-1111-4111-8111-111111111111' },
    ]);
    expect(await h.ctx.workspaceDeletion.sweep()).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(filesUnder(mediaDirs(h).objects).some((f) => f.includes(img.media_id) || f.endsWith('orphan.png'))).toBe(
      false,
    );
    expect(await h.ctx.database.db.select().from(storageDeletions).where(eq(storageDeletions.kind, 'object'))).toEqual(
      [],
    );
  });
});
