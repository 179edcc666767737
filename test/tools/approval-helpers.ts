// Helpers of the suites on held tool actions (src/tools/pending-actions.ts): the workspace setting, what waits for
// approval, the calls a simulator received, and a YouTube video with seeded comments to answer.
import { expect } from 'vitest';
import { asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { endToEnd } from '../publishing/end-to-end.ts';

export async function setApproval(h: Harness, u: TestUser, on: boolean): Promise<void> {
  const res = await h.req({
    method: 'PATCH',
    url: `/workspaces/${u.workspaceId}`,
    headers: asUser(u),
    payload: { tool_posts_need_approval: on },
  });
  expect(res.statusCode, res.body).toBe(200);
}

export interface PendingItem {
  id: string;
  platform: string;
  status: string;
  kind: 'post' | 'action';
  requested_via: string | null;
  action: {
    tool: string;
    summary: string;
    arguments: Record<string, unknown>;
    decided_by: string | null;
    result: Record<string, unknown> | null;
  } | null;
}

/** The workspace's drafts in a status, as a member lists them. */
export async function listed(
  h: Harness,
  u: TestUser,
  status = 'pending_approval',
  headers: Record<string, string> = asUser(u),
): Promise<PendingItem[]> {
  const res = await h.req({ method: 'GET', url: `/unified/drafts?status=${status}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as PendingItem[];
}

/** The calls a network's simulator received that match (method and path), since the sandbox started. */
export async function networkCalls(h: Harness, platform: string, method: string, path: RegExp): Promise<number> {
  const state = (await (await fetch(`${h.url}/sandbox/_state`)).json()) as Record<
    string,
    { requests?: { method: string; path: string }[] }
  >;
  return (state[platform]?.requests ?? []).filter((r) => r.method === method && path.test(r.path)).length;
}

/** The write calls each held action makes at its simulator. */
export const REPLY_CALL = ['POST', /\/comments$/] as const;
export const REVOKE_CALL = ['POST', /\/revoke$/] as const;
export const BLUESKY_LOGIN = ['POST', /createSession$/] as const;

/** A published YouTube video of the user with seeded comments; their ids. */
export async function youtubeComments(
  h: Harness,
  u: TestUser,
  texts: string[],
): Promise<{ videoId: string; commentIds: string[] }> {
  const video = await endToEnd(() => h).media(u, 'mp4');
  const res = await h.req({
    method: 'POST',
    url: '/unified/post/video',
    headers: asUser(u),
    payload: {
      platforms: ['youtube'],
      default_text: 'A video',
      video_id: video,
      youtube: { youtube_title: 'A video' },
    },
  });
  expect(res.json().success, res.body).toBe(true);
  const videoId = res.json().post.post_id as string;
  const seeded = await fetch(`${h.url}/sandbox/_seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      platform: 'youtube',
      post_id: videoId,
      comments: texts.map((text) => ({ text, author_name: 'A viewer' })),
    }),
  });
  expect(seeded.status).toBe(201);
  return { videoId, commentIds: ((await seeded.json()) as { comment_ids: string[] }).comment_ids };
}

/** A member signed in approves an item. */
export const approveItem = (h: Harness, u: TestUser, id: string, headers: Record<string, string> = asUser(u)) =>
  h.req({ method: 'POST', url: `/unified/drafts/${id}/approve`, headers });
