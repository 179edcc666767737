import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIMULATORS } from '../../src/sandbox/simulators.ts';
import { json, postForm, withQuery } from './helpers.ts';
import { startSandbox } from '../helpers/sandbox.ts';
import type { Json } from './helpers.ts';
import type { TestSandbox } from '../helpers/sandbox.ts';
import { connectInstagram, objects } from './publish-helpers.ts';

let sb: TestSandbox;

const config = (body: unknown) =>
  fetch(`${sb.root}/_config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('sandbox publishing machinery', () => {
  it('declares publish, upload and status on every network', async () => {
    const { operations } = await json(await fetch(`${sb.root}/_faults`));
    for (const { slug: p } of SIMULATORS)
      expect((operations as unknown as Record<string, string[]>)[p]).toEqual(
        expect.arrayContaining(['publish', 'upload', 'status']),
      );
    expect(await json(await fetch(`${sb.root}/_state?platform=youtube`))).toMatchObject({
      youtube: { posts: [], media: [], containers: [], uploads: [] },
    });
  });

  it('configures processing delays per platform or for all, and publishing limits', async () => {
    expect(await json(await fetch(`${sb.root}/_config`))).toMatchObject({
      processingMs: { instagram: 200, bluesky: 200 },
      publishLimits: { instagram: 50, threads: 250 },
    });
    expect(await sb.configure({ processingMs: 0 })).toMatchObject({ processingMs: { linkedin: 0, tiktok: 0 } });
    expect(await sb.configure({ processingMs: { tiktok: 75 }, publishLimits: { instagram: 3 } })).toMatchObject({
      processingMs: { linkedin: 0, tiktok: 75 },
      publishLimits: { instagram: 3 },
    });
    expect((await config({ processingMs: -1 })).status).toBe(400);
    expect((await config({ processingMs: { myspace: 5 } })).status).toBe(400);
    expect((await config({ publishLimits: { linkedin: 5 } })).status).toBe(400);
    await sb.reset();
    expect(await json(await fetch(`${sb.root}/_config`))).toMatchObject({
      processingMs: { tiktok: 200 },
      publishLimits: { instagram: 50 },
    });
  });

  it('finishes processing when the sandbox clock moves past the delay, and _state shows the settled state', async () => {
    await sb.lenient('public_media_only'); // media on made-up hosts (cdn.example.com), judged by their names
    await sb.configure({ processingMs: { instagram: 600_000 } });
    const { token, igUserId } = await connectInstagram(sb);
    const created = await json(
      await postForm(sb.url('instagram', `/v21.0/${igUserId}/media`), {
        access_token: token,
        image_url: 'https://cdn.example.com/a.jpg',
      }),
    );
    const containers = () => objects(sb, 'instagram', 'containers');
    expect((await containers())[0]).toMatchObject({ id: created.id, status_code: 'IN_PROGRESS' });
    expect((await containers())[0]?.scheduled).toHaveLength(1);
    sb.advance(600);
    const settled = (await containers())[0] as Json;
    expect(settled).toMatchObject({ status_code: 'FINISHED' });
    expect(settled.scheduled).toBeUndefined();
    const status = await json(
      await fetch(
        withQuery(sb.url('instagram', `/v21.0/${String(created.id)}`), { fields: 'status_code', access_token: token }),
      ),
    );
    expect(status).toEqual({ status_code: 'FINISHED', id: created.id });
  });
});
