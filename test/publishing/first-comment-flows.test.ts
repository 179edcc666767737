// The first comment through every way a post goes out: a scheduled post (and a PATCH of its first comment) published
// by the worker, a draft published later, and the publish tool. Real adapters against the simulators.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { toolRunner } from '../tools/helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sandbox: true, clock: () => new Date() });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0 }),
  });
});
afterAll(async () => h?.close());

const tools = toolRunner(() => h);

async function linkedinComments(text: string): Promise<{ id: string; postId: string }[]> {
  const all = (await (await fetch(`${h.url}/sandbox/_state`)).json()) as Record<
    string,
    { comments: { id: string; postId: string; text: string }[] }
  >;
  return all.linkedin!.comments.filter((c) => c.text === text);
}

type FirstComment = { status: string; id?: string; error?: string };

describe('first_comment on scheduled posts, drafts and the publish tool', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await h.signup();
    await connect(h, u, 'linkedin');
    await connect(h, u, 'pinterest');
  });

  it('a scheduled post (its first comment changed by PATCH) is published by the worker with its comment', async () => {
    const first = `Scheduled comment ${randomUUID().slice(0, 8)}`;
    const changed = `${first} (edited)`;
    const res = await h.req({
      method: 'POST',
      url: '/unified/scheduled-posts',
      headers: asUser(u),
      payload: {
        post_type: 'text',
        platforms: ['linkedin'],
        default_text: 'Scheduled with a comment',
        first_comment: first,
        scheduled_time: new Date(Date.now() + 60_000).toISOString(),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().scheduled[0].scheduled_post_id as string;
    const tooLong = await h.req({
      method: 'PATCH',
      url: `/unified/scheduled-posts/${id}`,
      headers: asUser(u),
      payload: { post_data: { first_comment: 'x'.repeat(1251) } },
    });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().detail[0].loc).toEqual(['body', 'post_data', 'first_comment']);
    const patch = await h.req({
      method: 'PATCH',
      url: `/unified/scheduled-posts/${id}`,
      headers: asUser(u),
      payload: { post_data: { first_comment: changed } },
    });
    expect(patch.statusCode, patch.body).toBe(200);

    await h.ctx.database.db.execute(
      `update scheduled_posts set scheduled_time = now() - interval '1 second' where id = '${id}'` as never,
    );
    await h.ctx.scheduleWorker.tick();
    await h.ctx.scheduleWorker.tick();
    const row = (await h.ctx.scheduling.store.byId(id))!;
    expect(row.status).toBe('published');
    expect(await linkedinComments(first)).toEqual([]);
    const comments = await linkedinComments(changed);
    expect(comments).toHaveLength(1);
    const [target] = await h.ctx.publishing.ledger.targetsOf(row.postId!);
    expect(comments[0]!.postId).toBe(target!.platformPostId);
  });

  it('a draft keeps its first comment and posts it when published', async () => {
    const text = `Draft comment ${randomUUID().slice(0, 8)}`;
    const saved = await h.req({
      method: 'POST',
      url: '/unified/drafts',
      headers: asUser(u),
      payload: { post_type: 'text', platforms: ['linkedin'], default_text: 'A draft', first_comment: text },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const draftId = (saved.json().drafts?.[0]?.draft_id ?? saved.json().draft_id) as string;
    expect(await linkedinComments(text)).toEqual([]);
    const res = await h.req({ method: 'POST', url: `/unified/drafts/${draftId}/publish`, headers: asUser(u) });
    expect(res.statusCode, res.body).toBe(200);
    const post = res.json().post as { post_id: string; first_comment: FirstComment };
    expect(post.first_comment.status).toBe('posted');
    expect((await linkedinComments(text)).map((c) => [c.id, c.postId])).toEqual([
      [post.first_comment.id, post.post_id],
    ]);
  });

  it('a draft for a network that takes no first comment is refused', async () => {
    const res = await h.req({
      method: 'POST',
      url: '/unified/drafts',
      headers: asUser(u),
      payload: {
        post_type: 'image',
        platforms: ['pinterest'],
        default_text: 'A pin',
        default_image_url: 'https://example.com/a.jpg',
        first_comment: 'Nope',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'first_comment'], type: 'first_comment_unsupported' });
  });

  it('the publish tool takes first_comment', async () => {
    const text = `Tool comment ${randomUUID().slice(0, 8)}`;
    const out = (await tools.call(u, 'publish', {
      platforms: 'linkedin',
      default_text: 'From the tool',
      first_comment: text,
    })) as { success: boolean; post: { post_id: string; first_comment: FirstComment } };
    expect(out.success).toBe(true);
    expect(out.post.first_comment.status).toBe('posted');
    expect((await linkedinComments(text)).map((c) => c.postId)).toEqual([out.post.post_id]);
    const refused = await tools.fails(u, 'publish', {
      platforms: 'linkedin',
      default_text: 'x',
      platform_overrides_json: JSON.stringify({ linkedin: { first_comment: 'y'.repeat(1251) } }),
    });
    expect(JSON.stringify(refused.detail)).toContain('The first comment on LinkedIn may have at most 1250 characters');
  });
});
