// Bad input on the post and draft routes: impossible dates, invisible or over-long text, errors at the
// field the client sent, and drafts checked like the post routes check `draft: true`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, asUser, type Harness, type TestUser } from '../helpers/harness.ts';
import type { RunningServer } from '../media/helpers/test-server.ts';
import { jpeg, mediaHost } from '../media-routes/helpers.ts';
import { imageMedia, scriptedAdapters, type Script } from './helpers.ts';

const script: Script = { calls: [], behaviour: {} };
let h: Harness;
let server: RunningServer;
beforeAll(async () => {
  const photo = await jpeg(800, 800);
  const host = await mediaHost(
    (_req, res) => void res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length }).end(photo),
  );
  server = host.server;
  h = await createHarness({
    sandbox: true,
    clock: () => new Date('2026-11-20T10:00:00Z'),
    env: { HERALD_FETCH_ALLOW_HOSTS: 'media.test' },
    overrides: { adapters: scriptedAdapters(script), media: { fetch: host.fetch } },
  });
});
afterAll(async () => {
  await h?.close();
  await server?.close();
});

const post = (u: TestUser, type: string, payload: object) =>
  h.req({ method: 'POST', url: `/unified/post/${type}`, headers: asUser(u), payload });
const saveDraft = (u: TestUser, payload: object) =>
  h.req({ method: 'POST', url: '/unified/drafts', headers: asUser(u), payload });
const locs = (res: { json(): { detail: { loc: unknown[] }[] } }) => res.json().detail.map((d) => d.loc);
const draftCount = async (u: TestUser) =>
  (await h.req({ method: 'GET', url: '/unified/drafts', headers: asUser(u) })).json().total as number;

// A private address literal: refused by the fetcher's address policy before any connection.
const PRIVATE_URL = 'https://10.1.2.3/photo.jpg';

describe('dates that do not exist', () => {
  it('are 422 at the field sent, on the body and in an override, where Date would roll them over', async () => {
    const u = await h.signup();
    for (const t of [
      '2027-02-30T10:00:00Z',
      '2027-02-29T10:00:00Z',
      '2027-04-31T10:00:00+02:00',
      '2027-01-01T24:00:00Z',
      '2027-01-01T10:60:00Z',
    ]) {
      const top = await post(u, 'text', { platforms: ['bluesky'], default_text: 'x', scheduled_time: t });
      expect(top.statusCode, `${t}: ${top.body}`).toBe(422);
      expect(locs(top)).toEqual([['body', 'scheduled_time']]);
      const override = await post(u, 'text', {
        platforms: ['linkedin'],
        default_text: 'x',
        linkedin: { scheduled_time: t },
      });
      expect(override.statusCode, t).toBe(422);
      expect(locs(override)).toEqual([['body', 'linkedin', 'scheduled_time']]);
    }
    const leap = await post(u, 'text', {
      platforms: ['bluesky'],
      default_text: 'x',
      scheduled_time: '2028-02-29T10:00:00Z',
    });
    expect(leap.statusCode, leap.body).toBe(200);
    expect(leap.json().scheduled[0].scheduled_time).toBe('2028-02-29T10:00:00.000Z');
  });

  it('are 422 in a draft body too', async () => {
    const u = await h.signup();
    const res = await saveDraft(u, {
      post_type: 'text',
      platforms: ['threads'],
      default_text: 'x',
      threads: { scheduled_time: '2027-02-30T10:00:00Z' },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(locs(res)).toEqual([['body', 'threads', 'scheduled_time']]);
  });
});

describe('text that shows nothing', () => {
  const blanks = ['   ', '\u200b\u200b', '\u200d\ufeff \u2060', '\u3164', '\n\t\u00a0'];

  it('is 422 for default_text and per-network texts, at the field', async () => {
    const u = await h.signup();
    for (const blank of blanks) {
      const text = await post(u, 'text', { platforms: ['bluesky'], default_text: blank });
      expect(text.statusCode, JSON.stringify(blank)).toBe(422);
      expect(locs(text)).toEqual([['body', 'default_text']]);
      const caption = await post(u, 'image', {
        platforms: ['instagram'],
        default_image_id: '00000000-0000-4000-8000-000000000000',
        default_text: blank,
      });
      expect(locs(caption)).toEqual([['body', 'default_text']]);
      const own = await post(u, 'text', {
        platforms: ['linkedin', 'facebook'],
        default_text: 'fine',
        linkedin: { linkedin_text: blank },
        facebook: { facebook_page_ids: ['p1'], facebook_page_texts: { p1: blank } },
      });
      expect(locs(own)).toEqual([
        ['body', 'linkedin', 'linkedin_text'],
        ['body', 'facebook', 'facebook_page_texts', 'p1'],
      ]);
    }
    expect(script.calls).toHaveLength(0);
  });

  it('is 422 when an override empties the text of a text post', async () => {
    const u = await h.signup();
    const res = await post(u, 'text', {
      platforms: ['linkedin'],
      default_text: 'fine',
      linkedin: { linkedin_text: '' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe('A text post needs visible text: linkedin_text for LinkedIn is empty.');
  });

  it('is 422 in drafts too', async () => {
    const u = await h.signup();
    const res = await saveDraft(u, { post_type: 'text', platforms: ['bluesky'], default_text: '\u200b' });
    expect(res.statusCode).toBe(422);
    expect(locs(res)).toEqual([['body', 'default_text']]);
    expect((await saveDraft(u, { post_type: 'text', platforms: ['bluesky'] })).statusCode).toBe(422);
  });
});

describe('Bluesky text over 3000 bytes', () => {
  it('is 422 even within 300 graphemes', async () => {
    const u = await h.signup();
    // 👩‍👩‍👧‍👦 is one grapheme and 25 UTF-8 bytes: 121 of them are 3025 bytes.
    const res = await post(u, 'text', { platforms: ['bluesky'], default_text: '👩‍👩‍👧‍👦'.repeat(121) });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe(
      'Max text size for bluesky is 3000 UTF-8 bytes. Received 3025 bytes in default_text.',
    );
    const draft = await saveDraft(u, {
      post_type: 'text',
      platforms: ['bluesky'],
      default_text: '👩‍👩‍👧‍👦'.repeat(121),
    });
    expect(draft.statusCode).toBe(422);
  });
});

describe('errors name the field that was sent', () => {
  it('a refused URL is reported at its own field, not at default_image_url', async () => {
    const u = await h.signup();
    const cases: [object, (string | number)[]][] = [
      [{ platforms: ['linkedin'], linkedin_image: PRIVATE_URL }, ['body', 'linkedin_image']],
      [
        { platforms: ['linkedin'], linkedin: { linkedin_image_url: PRIVATE_URL } },
        ['body', 'linkedin', 'linkedin_image_url'],
      ],
      [
        { platforms: ['linkedin'], linkedin: { linkedin_page_ids: ['o1'], linkedin_page_images: { o1: PRIVATE_URL } } },
        ['body', 'linkedin', 'linkedin_page_images', 'o1'],
      ],
      [
        { platforms: ['facebook'], facebook: { facebook_page_ids: ['p1'], facebook_page_images: { p1: PRIVATE_URL } } },
        ['body', 'facebook', 'facebook_page_images', 'p1'],
      ],
      [
        { platforms: ['instagram'], instagram: { instagram_image_url: PRIVATE_URL } },
        ['body', 'instagram', 'instagram_image_url'],
      ],
      [
        { platforms: ['pinterest'], pinterest: { board_id: 'b1', pinterest_image_id: PRIVATE_URL } },
        ['body', 'pinterest', 'pinterest_image_id'],
      ],
      [{ platforms: ['tiktok'], default_image_url: PRIVATE_URL }, ['body', 'default_image_url']],
    ];
    for (const [payload, loc] of cases) {
      const res = await post(u, 'image', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().detail).toEqual([{ loc, msg: expect.stringMatching(/^URL refused/), type: 'url_refused' }]);
    }
    const video = await post(u, 'video', { platforms: ['linkedin'], linkedin: { video_url: PRIVATE_URL } });
    expect(locs(video)).toEqual([['body', 'linkedin', 'video_url']]);
  });

  it('media that does not suit a network is reported at the field that named it', async () => {
    const u = await h.signup();
    const png = await imageMedia(h, u, { format: 'png' });
    const jpeg = await imageMedia(h, u);
    const own = await post(u, 'image', {
      platforms: ['instagram', 'threads'],
      default_image_id: jpeg,
      instagram: { instagram_image_id: png },
    });
    expect(own.statusCode).toBe(422);
    expect(own.json().detail).toEqual([
      {
        loc: ['body', 'instagram', 'instagram_image_id'],
        msg: expect.stringMatching(/^Instagram accepts JPEG images only/),
        type: 'media_unsuitable',
      },
    ]);
    const third = await post(u, 'carousel', { platforms: ['instagram'], image_ids: [jpeg, jpeg, png] });
    expect(locs(third)).toEqual([['body', 'image_ids', 2]]);
    const tooMany = await post(u, 'carousel', {
      platforms: ['pinterest'],
      pinterest: { board_id: 'b' },
      image_ids: Array(6).fill(jpeg),
    });
    expect(tooMany.json().detail).toEqual([
      { loc: ['body', 'image_ids'], msg: 'Pinterest carousels take 2 to 5 images; got 6.', type: 'media_unsuitable' },
    ]);
  });
});

describe('drafts are checked like the post routes', () => {
  it('imports a media URL once, at save time, and keeps its library id beside the URL', async () => {
    const u = await h.signup();
    const url = `https://media.test:${server.port}/photo.jpg`;
    const res = await saveDraft(u, {
      post_type: 'image',
      platforms: ['instagram', 'threads'],
      default_image_url: url,
      default_text: 'caption',
    });
    expect(res.statusCode, res.body).toBe(200);
    const library = (await h.req({ method: 'GET', url: '/media', headers: asUser(u) })).json();
    expect(library.total).toBe(1);
    const [first, second] = await Promise.all(
      res
        .json()
        .drafts.map(
          async (d: { draft_id: string }) =>
            (await h.req({ method: 'GET', url: `/unified/drafts/${d.draft_id}`, headers: asUser(u) })).json().data,
        ),
    );
    for (const d of [first, second])
      expect(d).toMatchObject({ default_image_url: url, default_image_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(first.default_image_id).toBe(second.default_image_id);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a URL the fetcher refuses, at its field, and saves nothing', async () => {
    const u = await h.signup();
    const res = await saveDraft(u, {
      post_type: 'image',
      platforms: ['instagram'],
      instagram: { instagram_image_url: PRIVATE_URL },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().detail).toEqual([
      {
        loc: ['body', 'instagram', 'instagram_image_url'],
        msg: expect.stringMatching(/^URL refused/),
        type: 'url_refused',
      },
    ]);
    expect(await draftCount(u)).toBe(0);
  });

  it("refuses another workspace's media (404) and checks the body against its post type", async () => {
    const u = await h.signup();
    const other = await h.signup();
    const theirs = await imageMedia(h, other);
    const foreign = await saveDraft(u, { post_type: 'image', platforms: ['instagram'], default_image_id: theirs });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().detail).toBe(`Media not found: ${theirs}`);
    const oneImage = await saveDraft(u, {
      post_type: 'carousel',
      platforms: ['instagram'],
      image_ids: [await imageMedia(h, u)],
    });
    expect(oneImage.statusCode).toBe(422);
    expect(locs(oneImage)).toEqual([['body', 'image_ids']]);
    expect(await draftCount(u)).toBe(0);
  });

  it('a draft PATCH is checked the same way: media of this workspace, real text, known fields', async () => {
    const u = await h.signup();
    const other = await h.signup();
    const saved = await saveDraft(u, {
      post_type: 'image',
      platforms: ['instagram'],
      default_image_id: await imageMedia(h, u),
      default_text: 'caption',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const id = saved.json().drafts[0].draft_id;
    const patch = (payload: object) =>
      h.req({ method: 'PATCH', url: `/unified/drafts/${id}`, headers: asUser(u), payload });
    expect((await patch({ default_image_id: await imageMedia(h, other) })).statusCode).toBe(404);
    expect(locs(await patch({ default_text: ' \u200b ' }))).toEqual([['body', 'default_text']]);
    expect(locs(await patch({ default_image_url: PRIVATE_URL }))).toEqual([['body', 'default_image_url']]);
    expect(locs(await patch({ facebook: { facebook_page_ids: ['p'] } }))).toEqual([['body', 'facebook']]);
    const nothing = await patch({ no_such_field: 'x'.repeat(1000) });
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().detail[0].msg).toMatch(/^Nothing to update/);
    const draft = (await h.req({ method: 'GET', url: `/unified/drafts/${id}`, headers: asUser(u) })).json().data;
    expect(draft).toMatchObject({ default_text: 'caption' });
    expect(draft.post_data).not.toHaveProperty('no_such_field');
  });
});
