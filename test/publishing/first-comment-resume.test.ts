// A crash between the post and its first comment: the comment is posted once, never twice. The "dead" request is one
// whose comment call never returns (as a process that stopped would never return), before the network was asked or
// after it accepted the comment; once its Idempotency-Key lease has passed (the injected clock moves), a retry resumes
// the same target through its journal. Real adapters against the simulators.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADAPTERS } from '../../src/platforms/registry.ts';
import type { AdapterFactory } from '../../src/platforms/types.ts';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';

const LEASE_SECONDS = 60;
let now = new Date('2026-11-20T10:00:00Z').getTime();
const advance = (seconds: number) => (now += seconds * 1000);

/** What the wrapped comment call does: pass, hang before asking the network, or hang after it accepted. */
const hang = { mode: 'pass' as 'pass' | 'before' | 'after', entered: 0, sent: 0 };
const stuck = new Promise<never>(() => {});

const wrapped: AdapterFactory = (deps) => {
  const real = ADAPTERS.bluesky(deps);
  const comments = real.engagement!.comments!;
  return {
    ...real,
    engagement: {
      ...real.engagement!,
      comments: {
        ...comments,
        async comment(tokens, p) {
          hang.entered++;
          const mode = hang.mode;
          if (mode === 'before') return stuck;
          const out = await comments.comment!(tokens, p);
          hang.sent++;
          if (mode === 'after') return stuck;
          return out;
        },
      },
    },
  };
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: () => new Date(now),
    env: { HERALD_IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS) },
    overrides: { adapters: { bluesky: wrapped } },
  });
});
afterAll(async () => h?.close());

const post = (u: TestUser, payload: object, key: string) =>
  h.req({ method: 'POST', url: '/unified/post/text', headers: { ...asUser(u), 'idempotency-key': key }, payload });

async function repliesWith(text: string): Promise<{ id: string; postId: string }[]> {
  const all = (await (await fetch(`${h.url}/sandbox/_state`)).json()) as Record<
    string,
    { comments: { id: string; postId: string; text: string }[] }
  >;
  return all.bluesky!.comments.filter((c) => c.text === text);
}

describe('a crash between the post and its first comment', () => {
  let u: TestUser;
  beforeAll(async () => {
    u = await h.signup();
    await connect(h, u, 'bluesky');
  });

  for (const mode of ['before', 'after'] as const) {
    it(`resumes ${mode === 'before' ? 'before the network was asked' : 'after the network accepted it'}: one comment`, async () => {
      const text = `First comment, crash ${mode}`;
      const key = `fc-crash-${mode}`;
      const body = { platforms: ['bluesky'], default_text: `Post, crash ${mode}`, first_comment: text };
      hang.mode = mode;
      hang.entered = 0;
      hang.sent = 0;
      void post(u, body, key);
      await vi.waitFor(() => expect(hang.entered).toBe(1), { timeout: 30_000 });
      if (mode === 'after') await vi.waitFor(() => expect(hang.sent).toBe(1), { timeout: 30_000 });
      expect(await repliesWith(text)).toHaveLength(mode === 'after' ? 1 : 0);
      const row = (await h.ctx.publishing.ledger.findByKey(u.workspaceId, key))!;
      const [target] = await h.ctx.publishing.ledger.targetsOf(row.id);
      // The post is out and journaled; the target is not recorded as published before its first comment.
      expect(target!.state).toBe('processing');
      expect(target!.journal).toMatchObject({ 'herald.first_comment': '{"status":"sending"}' });

      hang.mode = 'pass';
      advance(LEASE_SECONDS + 1);
      const retry = await post(u, body, key);
      expect(retry.statusCode, retry.body).toBe(200);
      const reply = retry.json() as {
        success: boolean;
        post: { post_id: string; first_comment: { status: string; id: string } };
      };
      expect(reply.success).toBe(true);
      const replies = await repliesWith(text);
      expect(replies).toHaveLength(1);
      expect(replies[0]!.postId).toBe(reply.post.post_id);
      // Posted by the resumed run: with the reply's permalink; found again under the post: its id alone.
      expect(reply.post.first_comment).toEqual({
        status: 'posted',
        id: replies[0]!.id,
        ...(mode === 'before' ? { permalink: expect.stringMatching(`/post/${replies[0]!.id.split('/').pop()}$`) } : {}),
      });
      // Found again under the post after a lost answer; asked for only once otherwise.
      expect(hang.sent).toBe(1);
      const [done] = await h.ctx.publishing.ledger.targetsOf(row.id);
      expect(done!.state).toBe('published');
      expect(done!.attempts).toBe(2);
    });
  }
});
