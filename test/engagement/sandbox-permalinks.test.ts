// In sandbox mode a published post's permalink opens the page Herald serves for the simulated post (its text, media
// and comments, escaped), not the real network where the post does not exist; production hosts stay the real ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { endToEnd } from '../publishing/end-to-end.ts';
import { NETWORKS } from '../../src/platforms/registry.ts';
import { SIMULATORS } from '../../src/sandbox/index.ts';

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

const { media } = endToEnd(() => h);
const TEXT = 'Fresh <b>bread</b> & "rolls" <script>alert(1)</script>';

async function publish(
  u: TestUser,
  type: 'text' | 'image' | 'video',
  payload: Record<string, unknown>,
): Promise<{ post_id: string; permalink: string }> {
  const res = await h.req({ method: 'POST', url: `/unified/post/${type}`, headers: asUser(u), payload });
  expect(res.json().success, res.body).toBe(true);
  return res.json().post as { post_id: string; permalink: string };
}

async function seed(platform: string, postId: string, text: string): Promise<void> {
  const res = await fetch(`${h.url}/sandbox/_seed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform, post_id: postId, comments: [{ text, author_name: 'Zed <Quinn>' }] }),
  });
  expect(res.status).toBe(201);
}

describe('sandbox permalinks', () => {
  it('a LinkedIn post links to its simulated page: the text escaped, the media and the seeded comments', async () => {
    const u = await h.signup();
    await connect(h, u, 'linkedin');
    const image = await media(u, 'jpeg');
    const post = await publish(u, 'image', { platforms: ['linkedin'], default_text: TEXT, default_image_id: image });
    expect(post.permalink).toBe(`${h.url}/sandbox/linkedin/feed/update/${post.post_id}/`);
    await seed('linkedin', post.post_id, 'Where is the <shop>?');

    const page = await fetch(post.permalink);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain(
      'Fresh &#60;b&#62;bread&#60;/b&#62; &#38; &#34;rolls&#34; &#60;script&#62;alert(1)&#60;/script&#62;',
    );
    expect(html).not.toContain('<script>');
    expect(html).toMatch(/<ul data-media><li><code>urn:li:image:[^<]+<\/code><\/li><\/ul>/);
    expect(html).toContain('Zed &#60;Quinn&#62;');
    expect(html).toContain('Where is the &#60;shop&#62;?');

    // The posts read model links to the same page.
    const listed = (await h.req({ method: 'GET', url: '/unified/posts?platforms=linkedin', headers: asUser(u) })).json()
      .linkedin.posts;
    expect(listed.find((p: { post_id: string }) => p.post_id === post.post_id).permalink).toBe(post.permalink);
  });

  it('Bluesky and YouTube (a link with a query) open their pages too; a link to no post is a 404 page', async () => {
    const u = await h.signup();
    await connect(h, u, 'bluesky');
    const sky = await publish(u, 'text', { platforms: ['bluesky'], default_text: 'Hello from the sandbox sky' });
    expect(sky.permalink.startsWith(`${h.url}/sandbox/bluesky/profile/`)).toBe(true);
    expect(await (await fetch(sky.permalink)).text()).toContain('Hello from the sandbox sky');

    await connect(h, u, 'youtube');
    const video = await media(u, 'mp4');
    const yt = await publish(u, 'video', {
      platforms: ['youtube'],
      default_text: 'A sandbox video',
      video_id: video,
      youtube: { youtube_title: 'Sandbox title' },
    });
    expect(yt.permalink).toBe(`${h.url}/sandbox/youtube/watch?v=${yt.post_id}`);
    expect(await (await fetch(yt.permalink)).text()).toContain('Sandbox title');

    const missing = await fetch(`${h.url}/sandbox/youtube/watch?v=AAAAAAAAAAA`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Post not found');
  });

  it('every network whose adapter builds permalinks has a web host the sandbox points at itself; production keeps the real one', () => {
    for (const sim of SIMULATORS) {
      const hosts = NETWORKS.find((n) => n.slug === sim.slug)!.hosts;
      const web = hosts.webBase ?? hosts.web;
      // Instagram takes its permalinks from the API only, which the simulator answers with its own pages.
      if (sim.slug === 'instagram') {
        expect(web).toBeUndefined();
        continue;
      }
      expect(web, sim.slug).toMatch(/^https:\/\/(www\.)?[a-z.]+$/);
      const key = hosts.webBase ? 'webBase' : 'web';
      expect((sim.baseUrls('http://herald.test/sandbox/x') as Record<string, string>)[key], sim.slug).toBe(
        'http://herald.test/sandbox/x',
      );
      expect(sim.postPages?.paths.length, sim.slug).toBeGreaterThan(0);
    }
  });
});
