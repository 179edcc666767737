// withImportedMedia against plan.ts: after the rewrite, every target reads the library id where it
// read the URL before, so a stored body never sends publishing back to the URL.
import { describe, expect, it } from 'vitest';
import { mergeEdit, withImportedMedia } from '../../src/publishing/media-refs.ts';
import { planTargets, type MediaRef } from '../../src/publishing/plan.ts';
import type { PostBody } from '../../src/publishing/schemas.ts';
import type { PostType } from '../../src/platforms/publishing.ts';
import { Networks, NETWORKS } from '../../src/platforms/registry.ts';

const u = (name: string) => `https://media.example/${name}.jpg`;
const id = (name: string) => `00000000-0000-4000-8000-${name.padStart(12, '0').slice(-12)}`;
const networks = new Networks();
// Where each reference came from (its field) differs by design: the id field after the rewrite, the URL field before.
const refsOf = (postType: PostType, body: PostBody) =>
  planTargets({ networks, postType, body }).map((t) => [
    t.platform,
    t.destination?.id ?? null,
    t.media.map(({ field: _f, ...m }) => m),
  ]);
/** What #resolveMedia does to the targets: each URL becomes the id it was imported as. */
const resolved = (refs: ReturnType<typeof refsOf>, imported: Map<string, string>) =>
  refs.map(([p, d, media]) => [
    p,
    d,
    (media as MediaRef[]).map((m) => ('url' in m ? { id: imported.get(m.url)! } : m)),
  ]);

describe('withImportedMedia', () => {
  it('image route: every override and per-page field reads the id it read as a URL', () => {
    const body = {
      platforms: ['linkedin', 'facebook', 'instagram', 'threads', 'tiktok', 'pinterest'],
      default_image_url: u('default'),
      linkedin: {
        linkedin_page_ids: ['org1', 'org2'],
        post_to_personal: true,
        image_url: u('li'),
        linkedin_page_images: { org2: u('li-org2') },
      },
      facebook: { facebook_page_ids: ['p1', 'p2'], facebook_page_images: { p1: u('fb-p1'), p2: id('2') } },
      instagram: { instagram_image_url: u('ig') },
      threads: { threads_image_id: u('threads-in-id-field') },
      tiktok: {},
      pinterest: { board_id: 'b', pinterest_image_id: u('pin') },
    } as PostBody;
    const names = ['default', 'li', 'li-org2', 'fb-p1', 'ig', 'threads-in-id-field', 'pin'];
    const imported = new Map(names.map((n, i) => [u(n), id(String(100 + i))]));
    const before = JSON.stringify(body);
    const stored = withImportedMedia(NETWORKS, body, imported);
    expect(JSON.stringify(body)).toBe(before);
    const after = refsOf('image', stored);
    expect(after.flatMap(([, , m]) => m as MediaRef[]).every((m) => 'id' in m)).toBe(true);
    expect(after).toEqual(resolved(refsOf('image', body), imported));
    // URL fields keep the URL beside the id; fields taking either hold the id.
    expect(stored).toMatchObject({
      default_image_url: u('default'),
      default_image_id: imported.get(u('default')),
      linkedin: {
        image_url: u('li'),
        image_id: imported.get(u('li')),
        linkedin_page_images: { org2: imported.get(u('li-org2')) },
      },
      facebook: { facebook_page_images: { p1: imported.get(u('fb-p1')), p2: id('2') } },
      instagram: { instagram_image_url: u('ig'), instagram_image_id: imported.get(u('ig')) },
      threads: { threads_image_id: imported.get(u('threads-in-id-field')) },
      pinterest: { pinterest_image_id: imported.get(u('pin')) },
    });
  });

  it('video route, top-level and LinkedIn video; top-level linkedin_image; URLs not imported stay', () => {
    const video = {
      platforms: ['linkedin', 'bluesky'],
      video_url: u('v'),
      linkedin: { video_url: u('li-v') },
    } as PostBody;
    const imported = new Map([
      [u('v'), id('1')],
      [u('li-v'), id('2')],
    ]);
    const stored = withImportedMedia(NETWORKS, video, imported);
    expect(refsOf('video', stored)).toEqual(resolved(refsOf('video', video), imported));
    expect(stored).toMatchObject({
      video_id: id('1'),
      video_url: u('v'),
      linkedin: { video_id: id('2'), video_url: u('li-v') },
    });

    const image = {
      platforms: ['linkedin', 'threads'],
      default_image_id: id('9'),
      default_image_url: u('unused'),
      linkedin_image: u('top'),
    } as PostBody;
    const stored2 = withImportedMedia(NETWORKS, image, new Map([[u('top'), id('3')]]));
    expect(stored2).toMatchObject({
      default_image_id: id('9'),
      default_image_url: u('unused'),
      linkedin_image: id('3'),
    });
  });
});

describe('mergeEdit', () => {
  const stored = { default_text: 'a', default_image_url: u('old'), default_image_id: id('1'), video_id: id('2') };
  it('a new URL replaces the id stored for the old one', () => {
    expect(mergeEdit(stored, { default_image_url: u('new') })).toEqual({
      default_text: 'a',
      default_image_url: u('new'),
      video_id: id('2'),
    });
  });
  it('a new id replaces the old URL; other fields merge', () => {
    expect(mergeEdit(stored, { default_image_id: id('5'), default_text: 'b' })).toEqual({
      default_text: 'b',
      default_image_id: id('5'),
      video_id: id('2'),
    });
    expect(mergeEdit(stored, { default_text: 'c' })).toEqual({ ...stored, default_text: 'c' });
  });
});
