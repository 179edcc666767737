// Crash safety of scheduled publishing, with real processes: a `herald worker` is SIGKILLed at random
// points of multi-step publishes (YouTube resumable upload, Instagram carousel containers, TikTok chunked
// upload) 50 times and restarted each time. Every post must end published, and each network must hold
// exactly one post per scheduled post (counted in the simulators' state).
//
// The kill is placed by watching the worker's calls to the simulators (which run in this test process):
// at the k-th call of a round, chosen at random, the worker is killed either BEFORE the simulator acts
// (the call never reached the network) or AFTER it acted but before the answer is sent (the network has
// done it, Herald never learns). Together they cover "before the network call", "during a multi-step
// upload" and "after the network accepted the post but before Herald recorded it".
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { connect } from '../connections/helpers.ts';
import { writeMp4 } from '../media/helpers/video-fixtures.ts';
import { schedule, stopAll, workerLauncher } from './helpers.ts';
import { KillSwitch } from './kill-switch.ts';
import { until } from '../helpers/poll.ts';
import { chaosRandom } from '../helpers/chaos-seed.ts';

// CHAOS_KILLS lowers the count while debugging; CHAOS_VERBOSE prints each round.
const KILLS = Number(process.env.CHAOS_KILLS ?? 50);
const WATCHED = /^\/sandbox\/(youtube|instagram|tiktok)\//;

let round = 0;
let worker: ChildProcess | undefined;
let startWorker: () => ChildProcess = () => {
  throw new Error('not ready');
};
const chaos = new KillSwitch(WATCHED, async () => {
  await stopAll([worker], 'SIGKILL');
  // Restarted at once, as a supervisor would; it resumes the dead worker's claims once their lease passes.
  worker = startWorker();
});

let h: Harness;
let u: TestUser;
let videoId: string;
let imageIds: string[];

beforeAll(async () => {
  h = await createHarness({
    sandbox: true,
    clock: () => new Date(),
    env: { HERALD_PUBLISH_WAIT_SECONDS: '60' },
    configureApp: chaos.install,
  });
  await fetch(`${h.url}/sandbox/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ processingMs: 0, maxRequests: 2000, publishLimits: { instagram: 100_000 } }),
  });
  u = await h.signup();
  await h.setPlan(u.workspaceId, 'pro');
  for (const p of ['youtube', 'instagram', 'tiktok']) await connect(h, u, p);

  // 21 MiB: three resumable chunks on YouTube (8 MiB), two on TikTok (10 MiB, the rest rides with the last).
  const video = join(tmpdir(), `herald-chaos-${randomUUID()}.mp4`);
  await writeMp4(video, {
    width: 1080,
    height: 1920,
    durationSec: 12,
    mdatBytes: 21 * 1024 * 1024,
    audio: true,
    moovFirst: true,
  });
  const owner = { workspaceId: u.workspaceId, platform: null, platformUserId: null };
  videoId = (
    await h.ctx.media.add(
      owner,
      { file: { path: video, size: (await stat(video)).size, filename: 'chaos.mp4' } },
      'video',
      ['body', 'media'],
    )
  ).id;
  imageIds = [];
  for (const colour of ['#336699', '#993366']) {
    const path = join(tmpdir(), `herald-chaos-${randomUUID()}.jpg`);
    await writeFile(
      path,
      await sharp({ create: { width: 1080, height: 1080, channels: 3, background: colour } })
        .jpeg()
        .toBuffer(),
    );
    imageIds.push(
      (
        await h.ctx.media.add(
          owner,
          { file: { path, size: (await stat(path)).size, filename: 'chaos.jpg' } },
          'image',
          ['body', 'media'],
        )
      ).id,
    );
  }

  startWorker = workerLauncher(h, {
    HERALD_SCHEDULER_QUEUE: 'scan',
    HERALD_SCHEDULER_POLL_MS: '100',
    // Short, so a dead worker's claims are resumed quickly; live claims are renewed by the heartbeat.
    HERALD_SCHEDULER_LEASE_SECONDS: '1',
    HERALD_PUBLISH_WAIT_SECONDS: '60',
    HERALD_PUBLISH_POLL_MS: '200',
  });
}, 120_000);

afterAll(async () => {
  await stopAll([worker]);
  await h?.close();
});

type Posts = Record<string, { posts: unknown[] }>;
const state = async () => (await (await fetch(`${h.url}/sandbox/_state`)).json()) as Posts;
/** Posts on a network that carry this round's marker (in a title or caption). */
const postsWith = (s: Posts, platform: string, marker: string) =>
  s[platform]!.posts.filter((p) => JSON.stringify(p).includes(marker)).length;

/** Schedules this round's three posts (due at once) and waits until every one has ended. */
async function playRound(marker: string): Promise<string[]> {
  const t0 = Date.now();
  const due = new Date(Date.now() + 60_000).toISOString();
  const video = await schedule(h, u, {
    post_type: 'video',
    platforms: ['youtube', 'tiktok'],
    default_text: `Video ${marker}`,
    video_id: videoId,
    scheduled_time: due,
    youtube: { youtube_title: `Video ${marker}` },
    tiktok: { privacy_level: 'SELF_ONLY' },
  });
  expect(video.statusCode, video.body).toBe(200);
  const carousel = await schedule(h, u, {
    post_type: 'carousel',
    platforms: ['instagram'],
    default_text: `Carousel ${marker}`,
    image_ids: imageIds,
    scheduled_time: due,
  });
  expect(carousel.statusCode, carousel.body).toBe(200);
  const ids = [...video.json().scheduled, ...carousel.json().scheduled].map(
    (s: { scheduled_post_id: string }) => s.scheduled_post_id,
  );
  await h.ctx.database.db.execute(
    `update scheduled_posts set scheduled_time = now() where id in (${ids.map((i) => `'${i}'`).join(',')})` as never,
  );
  const rows = () => Promise.all(ids.map((id) => h.ctx.scheduling.store.byId(id)));
  await until(async () => (await rows()).every((r) => r!.status === 'published' || r!.status === 'failed'), {
    timeoutMs: 120_000,
    why: async () =>
      JSON.stringify((await rows()).map((r) => ({ platform: r!.platform, status: r!.status, error: r!.errorMessage }))),
  });
  if (process.env.CHAOS_VERBOSE) console.log(`round ${round}: ${Date.now() - t0} ms, kills ${chaos.kills.length}`);
  return ids;
}

describe('a worker SIGKILLed at random points of multi-step publishes', () => {
  it(`loses nothing and publishes nothing twice, over ${KILLS} kills`, { timeout: 900_000 }, async () => {
    const random = chaosRandom('worker chaos');
    worker = startWorker();
    // A round without a kill: how many calls a round makes, so the kill points cover all of them.
    const calibration = `chaos-${randomUUID().slice(0, 8)}`;
    chaos.arm(0, Number.POSITIVE_INFINITY, 'before');
    await playRound(calibration);
    const callsOf = { ...chaos.seenBy };
    expect(chaos.seen).toBeGreaterThanOrEqual(10);
    // Each round aims at one network and alternates the phase, so six rounds cover every pairing; the
    // call within that network's flow is random.
    const networks = ['youtube', 'tiktok', 'instagram'] as const;

    const markers = [calibration];
    const allIds: string[] = [];
    while (chaos.kills.length < KILLS) {
      round += 1;
      expect(round, 'too many rounds without a kill').toBeLessThan(KILLS * 3);
      const marker = `chaos-${randomUUID().slice(0, 8)}`;
      markers.push(marker);
      const network = networks[round % 3]!;
      chaos.arm(round, random.int(1, callsOf[network]!), round % 2 ? 'before' : 'after', network);
      allIds.push(...(await playRound(marker)));
      chaos.disarm();
    }

    // Zero lost: every entry published, with the network's id.
    const rows = await Promise.all(allIds.map((id) => h.ctx.scheduling.store.byId(id)));
    const notPublished = rows
      .filter((r) => r!.status !== 'published')
      .map((r) => `${r!.platform}: ${r!.status} ${r!.errorMessage}`);
    expect(notPublished).toEqual([]);
    expect(rows.every((r) => r!.publishedPostId)).toBe(true);
    // Zero duplicates: exactly one post per round and network.
    const s = await state();
    const counts = markers.map((m) => ({
      m,
      youtube: postsWith(s, 'youtube', m),
      tiktok: postsWith(s, 'tiktok', m),
      instagram: postsWith(s, 'instagram', m),
    }));
    const wrong = counts.filter((c) => c.youtube !== 1 || c.tiktok !== 1 || c.instagram !== 1);
    expect(
      wrong,
      JSON.stringify(chaos.kills.filter((k) => wrong.some((w) => markers.indexOf(w.m) === k.round))),
    ).toEqual([]);
    // The kills really were spread over the flows, both before and after the network acted (a few
    // kills, e.g. CHAOS_KILLS=3 while debugging, may not reach every pairing).
    if (KILLS >= 20) {
      expect(new Set(chaos.kills.map((k) => k.phase)).size).toBe(2);
      expect(new Set(chaos.kills.map((k) => k.call.split('/')[2])).size).toBe(3);
    }
  });
});
