// `npm run bench engagement`: the comments sync of one workspace — 8 networks × 10 posts, 50 comments per post
// where the network has comments — with the simulators answering after 100 ms (BENCH_ENGAGEMENT_LATENCY_MS): wall
// time of the sync (GET /unified/comments?force_refresh=true, which reads every post's comments from the networks
// and stores them), rows written per second, the server's memory before and after, and how fast the inbox then
// answers from the database. Targets: the sync under 3 s, GET /unified/comments p50 under 20 ms.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { writeMp4 } from '../test/media/helpers/video-fixtures.ts';
import { fmt, freePort, postJson, rssMiB, startHerald } from './lib.ts';

const NETWORKS = ['linkedin', 'facebook', 'instagram', 'threads', 'tiktok', 'youtube', 'pinterest', 'bluesky'];

async function upload(
  url: string,
  auth: Record<string, string>,
  bytes: Buffer,
  name: string,
  mime: string,
  type: 'image' | 'video',
): Promise<string> {
  const form = new FormData();
  form.append('media_type', type);
  form.append('media', new Blob([new Uint8Array(bytes)], { type: mime }), name);
  const res = await fetch(`${url}/media/upload`, { method: 'POST', headers: auth, body: form });
  const body = (await res.json()) as { media_id?: string; id?: string; data?: { media_id?: string; id?: string } };
  const id = body.media_id ?? body.id ?? body.data?.media_id ?? body.data?.id;
  if (!res.ok || !id) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
  return id;
}

export async function benchEngagement(opts: { posts: number; comments: number; latencyMs: number; seconds: number }) {
  console.log(
    `\n== Engagement: comments sync of ${NETWORKS.length} networks × ${opts.posts} posts × ${opts.comments} comments at ${opts.latencyMs} ms latency (PGlite)`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'herald-bench-'));
  const port = await freePort();
  const herald = await startHerald({
    HERALD_DATA_DIR: dir,
    HERALD_SANDBOX: '1',
    PORT: String(port),
    HERALD_PUBLIC_URL: `http://127.0.0.1:${port}`,
    HERALD_COMMENT_SYNC_INTERVAL_SECONDS: '0',
    HERALD_POSTS_FRESH_SECONDS: '86400',
    HERALD_COMMENTS_FRESH_SECONDS: '86400',
  });
  try {
    const url = herald.url;
    const session = await postJson<{ access_token: string }>(`${url}/auth/signup`, {
      email: 'bench@example.test',
      password: 'benchmark password',
    });
    const ws = (await (
      await fetch(`${url}/workspaces`, { headers: { authorization: `Bearer ${session.access_token}` } })
    ).json()) as { id: string }[];
    const auth = { authorization: `Bearer ${session.access_token}`, 'x-workspace-id': ws[0]!.id };
    await postJson(`${url}/sandbox/_config`, { latencyMs: 0, processingMs: 0, maxRequests: 200_000 });
    const oauth = await postJson<{ results: Record<string, { auth_url: string | null }> }>(
      `${url}/unified/oauth/url`,
      { platform: NETWORKS.filter((n) => n !== 'bluesky') },
      auth,
    );
    for (const [p, r] of Object.entries(oauth.results)) {
      const res = await fetch(r.auth_url!, { headers: { 'x-sandbox-auto-approve': '1' } });
      if (!(await res.text()).includes('data-status="success"')) throw new Error(`connecting ${p} failed`);
    }
    await postJson(
      `${url}/unified/oauth/url`,
      { platform: ['bluesky'], handle: 'bench.sandbox', app_password: 'abcd-efgh-ijkl-mnop' },
      auth,
    );
    const profiles = (await (
      await fetch(`${url}/unified/user-profiles/?platforms=facebook&platforms=pinterest&platforms=linkedin`, {
        headers: auth,
      })
    ).json()) as {
      facebook: { pages: { page_id: string }[] };
      pinterest: { boards: { board_id: string }[] };
      linkedin: { organizations: { page_id: string }[] };
    };
    const page = profiles.facebook.pages[0]!.page_id;
    // LinkedIn comments are readable on organization posts (a member's own need r_member_social, which Herald lacks).
    const org = profiles.linkedin.organizations[0]!.page_id;
    const board = profiles.pinterest.boards[0]!.board_id;

    const image = await upload(
      url,
      auth,
      await sharp({ create: { width: 1080, height: 1080, channels: 3, background: '#3366aa' } })
        .jpeg()
        .toBuffer(),
      'a.jpg',
      'image/jpeg',
      'image',
    );
    const mp4Path = join(dir, 'clip.mp4');
    await writeMp4(mp4Path, {
      width: 1080,
      height: 1920,
      durationSec: 12,
      mdatBytes: 64 * 1024,
      audio: true,
      moovFirst: true,
    });
    const video = await upload(url, auth, readFileSync(mp4Path), 'clip.mp4', 'video/mp4', 'video');
    const t0 = performance.now();
    for (let i = 0; i < opts.posts; i++) {
      await postJson(
        `${url}/unified/post/text`,
        {
          platforms: ['linkedin', 'facebook', 'threads', 'bluesky'],
          default_text: `Bench post ${i}`,
          facebook: { facebook_page_ids: [page] },
          linkedin: { linkedin_page_ids: [org], post_to_personal: false },
        },
        auth,
      );
      await postJson(
        `${url}/unified/post/image`,
        {
          platforms: ['instagram', 'pinterest'],
          default_text: `Bench image ${i}`,
          default_image_id: image,
          pinterest: { board_id: board, pinterest_text: `Pin ${i}` },
        },
        auth,
      );
      await postJson(
        `${url}/unified/post/video`,
        {
          platforms: ['youtube', 'tiktok'],
          default_text: `Bench video ${i}`,
          video_id: video,
          youtube: { youtube_title: `Video ${i}` },
          tiktok: { privacy_level: 'SELF_ONLY' },
        },
        auth,
      );
    }
    console.log(
      `  set-up: ${NETWORKS.length * opts.posts} posts published in ${fmt((performance.now() - t0) / 1000)} s`,
    );
    const listed = (await (
      await fetch(`${url}/unified/posts/?limit=${opts.posts}&refresh_posts=true`, { headers: auth })
    ).json()) as Record<string, { posts?: { post_id: string }[] }>;
    let seeded = 0;
    const comments = Array.from({ length: opts.comments }, (_, i) => ({
      text: `Comment number ${i + 1} on this post`,
    }));
    for (const p of NETWORKS) {
      for (const post of listed[p]?.posts ?? []) {
        const res = await fetch(`${url}/sandbox/_seed`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            platform: p,
            post_id: post.post_id,
            comments,
            metrics: { likes: 5, impressions: 100 },
          }),
        });
        if (res.status === 201) seeded += opts.comments;
      }
    }
    await postJson(`${url}/sandbox/_config`, { latencyMs: opts.latencyMs });
    const rssBefore = rssMiB(herald.child.pid!);
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(herald.child.pid!))), 50);
    const s0 = performance.now();
    const res = await fetch(
      `${url}/unified/comments/?limit=${opts.posts}&comments_per_post=${Math.min(opts.comments, 100)}&force_refresh=true`,
      { headers: auth },
    );
    const body = (await res.json()) as Record<string, { posts?: { comments: unknown[] }[]; error?: string }>;
    const wall = (performance.now() - s0) / 1000;
    clearInterval(sampler);
    const stored = Object.values(body).reduce(
      (n, s) => n + (typeof s === 'object' && s?.posts ? s.posts.reduce((m, p) => m + p.comments.length, 0) : 0),
      0,
    );
    const errors = Object.entries(body)
      .filter(([, s]) => typeof s === 'object' && s?.error && s.error !== 'NOT_SUPPORTED')
      .map(([p, s]) => `${p}:${s.error}`);
    console.log(
      `  sync: ${stored}/${seeded} comments of ${Object.values(body).reduce((n, s) => n + (typeof s === 'object' && s?.posts ? s.posts.length : 0), 0)} posts in ${fmt(wall, 2)} s (target < 3 s) · ${fmt(stored / wall, 0)} rows/s · RSS ${fmt(rssBefore, 0)} → ${fmt(rssMiB(herald.child.pid!), 0)} MiB (peak ${fmt(peak, 0)})${errors.length ? ` · errors ${errors.join(', ')}` : ''}`,
    );
    await postJson(`${url}/sandbox/_config`, { latencyMs: 0 });
    const calls = async () => {
      const state = (await (await fetch(`${url}/sandbox/_state`)).json()) as Record<
        string,
        { requests: { method: string; path: string }[] }
      >;
      return Object.fromEntries(Object.entries(state).map(([p, s]) => [p, s.requests.length]));
    };
    const callsBefore = await calls();
    const perNetwork: string[] = [];
    for (const p of NETWORKS) {
      const t = performance.now();
      await (
        await fetch(
          `${url}/unified/comments/?platforms=${p}&limit=${opts.posts}&comments_per_post=${Math.min(opts.comments, 100)}`,
          { headers: auth },
        )
      ).json();
      perNetwork.push(`${p} ${fmt(performance.now() - t, 0)}`);
    }
    console.log(`  one GET /unified/comments per network (ms): ${perNetwork.join(', ')}`);
    const read = await autocannon({
      url: `${url}/unified/comments/?limit=${opts.posts}&comments_per_post=${Math.min(opts.comments, 100)}`,
      headers: auth,
      connections: 1,
      duration: opts.seconds,
    });
    const callsAfter = await calls();
    const made = Object.entries(callsAfter)
      .filter(([p, n]) => n !== callsBefore[p])
      .map(([p, n]) => `${p} ${n - (callsBefore[p] ?? 0)}`);
    console.log(`  network calls during the reads from the database: ${made.length ? made.join(', ') : 'none'}`);
    console.log(
      `  GET /unified/comments from the database: p50 ${read.latency.p50} ms (target < 20 ms)  p99 ${read.latency.p99} ms  ${fmt(read.requests.average)} req/s  non-2xx ${read.non2xx}`,
    );
  } finally {
    await herald.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
