// The composer's body: each network's override lands in the field that network reads, media choose the post route,
// destinations go where the API expects them, and nothing is sent for a network that was not picked.
import { describe, expect, it } from 'vitest';
import {
  buildPostBody,
  buildScheduleBody,
  type ComposerState,
  emptyComposer,
  firstCommentFieldOf,
  firstCommentFor,
  postTypeOf,
  textFieldOf,
  textFor,
} from '../../web/src/compose/post.ts';

const img = (id: string) => ({ media_id: id, media_type: 'image', public_url: `https://x/${id}`, filename: id });
const vid = (id: string) => ({ media_id: id, media_type: 'video', public_url: `https://x/${id}`, filename: id });
const state = (o: Partial<ComposerState>): ComposerState => ({ ...emptyComposer(), ...o });

describe('postTypeOf', () => {
  it('follows the media', () => {
    expect(postTypeOf([])).toBe('text');
    expect(postTypeOf([img('a')])).toBe('image');
    expect(postTypeOf([img('a'), img('b')])).toBe('carousel');
    expect(postTypeOf([img('a'), vid('v')])).toBe('video');
  });
});

describe('buildPostBody', () => {
  it('sends the common text and only the overrides that differ, in each network field', () => {
    const body = buildPostBody(
      state({
        text: 'Fresh bread',
        networks: ['linkedin', 'threads', 'bluesky'],
        overrides: { linkedin: 'Fresh bread, LinkedIn edition', threads: '  ', instagram: 'not picked' },
      }),
    );
    expect(body).toEqual({
      platforms: ['linkedin', 'threads', 'bluesky'],
      default_text: 'Fresh bread',
      linkedin: { linkedin_text: 'Fresh bread, LinkedIn edition' },
    });
  });
  it('puts Facebook pages and their text per page', () => {
    const body = buildPostBody(
      state({ text: 'Hi', networks: ['facebook'], facebookPageIds: ['p1', 'p2'], overrides: { facebook: 'Hi FB' } }),
    );
    expect(body.facebook).toEqual({
      facebook_page_ids: ['p1', 'p2'],
      facebook_page_texts: { p1: 'Hi FB', p2: 'Hi FB' },
    });
  });
  it('posts to LinkedIn pages and, when asked, to the personal profile too', () => {
    const s = state({ text: 'x', networks: ['linkedin'], linkedinPageIds: ['urn:li:organization:1'] });
    expect(buildPostBody(s).linkedin).toEqual({ linkedin_page_ids: ['urn:li:organization:1'], post_to_personal: true });
    expect(buildPostBody({ ...s, linkedinPersonal: false }).linkedin).toEqual({
      linkedin_page_ids: ['urn:li:organization:1'],
    });
  });
  it('sends media by route: one image, a carousel, a video', () => {
    expect(buildPostBody(state({ networks: ['linkedin'], media: [img('a')] })).default_image_id).toBe('a');
    expect(buildPostBody(state({ networks: ['linkedin'], media: [img('a'), img('b')] })).image_ids).toEqual(['a', 'b']);
    expect(buildPostBody(state({ networks: ['youtube'], media: [vid('v')], youtubeTitle: ' T ' }))).toEqual({
      platforms: ['youtube'],
      video_id: 'v',
      youtube: { youtube_title: 'T' },
    });
  });
  it('sends the Pinterest board and no empty override objects', () => {
    expect(buildPostBody(state({ networks: ['pinterest'], pinterestBoardId: 'b1', media: [img('a')] }))).toEqual({
      platforms: ['pinterest'],
      default_image_id: 'a',
      pinterest: { board_id: 'b1' },
    });
  });
  it('adds the route and the time for a schedule', () => {
    const body = buildScheduleBody(state({ text: 'x', networks: ['threads'] }), '2026-12-01T09:00:00.000Z');
    expect(body).toMatchObject({ post_type: 'text', scheduled_time: '2026-12-01T09:00:00.000Z' });
  });
});

describe('textFor and textFieldOf', () => {
  it('gives a network its override, else the common text', () => {
    const s = state({ text: 'common', overrides: { threads: 'mine', bluesky: 'ignored' } });
    expect(textFor(s, 'threads')).toBe('mine');
    expect(textFor(s, 'linkedin')).toBe('common');
    expect(textFor(s, 'bluesky')).toBe('common');
  });
  it('names the body field the API reports a network text error under', () => {
    expect(textFieldOf('threads')).toBe('threads.threads_text');
    expect(textFieldOf('bluesky')).toBe('default_text');
  });
});

describe('the first comment', () => {
  const noFirstComment = ['tiktok', 'pinterest'];
  it('sends the common one in first_comment, and nothing when it is blank', () => {
    expect(buildPostBody(state({ text: 'x', networks: ['bluesky'], firstComment: 'Link below' }))).toEqual({
      platforms: ['bluesky'],
      default_text: 'x',
      first_comment: 'Link below',
    });
    expect(buildPostBody(state({ text: 'x', networks: ['bluesky'], firstComment: '  ' }))).toEqual({
      platforms: ['bluesky'],
      default_text: 'x',
    });
  });
  it('puts a network’s own in its override object, beside its own text', () => {
    const s = state({
      text: 'x',
      networks: ['threads', 'bluesky'],
      overrides: { threads: 'own text' },
      firstComment: 'common',
      firstCommentOverrides: { threads: 'own comment', bluesky: 'no override object' },
    });
    expect(buildPostBody(s, { noFirstComment })).toEqual({
      platforms: ['threads', 'bluesky'],
      default_text: 'x',
      first_comment: 'common',
      threads: { threads_text: 'own text', first_comment: 'own comment' },
    });
    expect(firstCommentFor(s, 'threads')).toBe('own comment');
    expect(firstCommentFor(s, 'bluesky')).toBe('common');
  });
  it('leaves a network that takes none out of the common one, and sends nothing for it otherwise', () => {
    const s = state({
      text: 'x',
      networks: ['threads', 'pinterest'],
      pinterestBoardId: 'b1',
      media: [img('a')],
      firstComment: 'common',
    });
    expect(buildPostBody(s, { noFirstComment })).toMatchObject({
      first_comment: 'common',
      pinterest: { board_id: 'b1', first_comment: '' },
    });
    expect(buildPostBody({ ...s, firstComment: '' }, { noFirstComment }).pinterest).toEqual({ board_id: 'b1' });
    expect(buildScheduleBody(s, '2026-12-01T09:00:00.000Z', { noFirstComment }).pinterest).toEqual({
      board_id: 'b1',
      first_comment: '',
    });
  });
  it('names the body field the API reports a first comment error under', () => {
    expect(firstCommentFieldOf('threads')).toBe('threads.first_comment');
    expect(firstCommentFieldOf('bluesky')).toBe('first_comment');
  });
});
