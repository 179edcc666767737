// The composer's AI help: generated copy lands in the common text or a network's own text, a failed network keeps
// what was there, a generated image joins the media once, and copy is written from the video before any image.
import { describe, expect, it } from 'vitest';
import { applyCopies, failuresOf, sourceMedium, withImage } from '../../web/src/compose/ai.ts';
import { emptyComposer, textFor } from '../../web/src/compose/post.ts';

describe('applyCopies', () => {
  it('gives a network without its own text the common text and the others their own', () => {
    const s = applyCopies(
      { ...emptyComposer(), networks: ['threads', 'bluesky'] },
      { threads: { content: 'For Threads' }, bluesky: { content: 'For Bluesky' } },
      ['threads', 'bluesky'],
    );
    expect(s.text).toBe('For Bluesky');
    expect(s.overrides).toEqual({ threads: 'For Threads' });
    expect(textFor(s, 'threads')).toBe('For Threads');
  });

  it('puts a single network’s copy in the common text, dropping a stale own text', () => {
    const s = applyCopies({ ...emptyComposer(), overrides: { threads: 'old' } }, { threads: { content: 'New' } }, [
      'threads',
    ]);
    expect(s.text).toBe('New');
    expect(s.overrides).toEqual({});
  });

  it('keeps the text of a network that failed, and reports it', () => {
    const before = { ...emptyComposer(), text: 'Mine', overrides: { threads: 'Own' } };
    const data = { threads: { error: 'model down' }, linkedin: { content: 'For LinkedIn' } };
    const s = applyCopies(before, data, ['threads', 'linkedin']);
    expect(s.text).toBe('For LinkedIn');
    expect(s.overrides).toEqual({ threads: 'Own' });
    expect(failuresOf(data)).toEqual([{ network: 'threads', error: 'model down' }]);
    expect(applyCopies(before, { threads: { error: 'x' } }, ['threads'])).toBe(before);
  });
});

describe('media', () => {
  const image = { media_id: 'm1', image_url: 'https://h.example/m1.png', image_prompt: 'card' };
  it('adds a generated image once, as an image of the post', () => {
    const once = withImage([], image, 'AI image');
    expect(once).toEqual([
      { media_id: 'm1', media_type: 'image', public_url: 'https://h.example/m1.png', filename: 'AI image' },
    ]);
    expect(withImage(once, image, 'AI image')).toBe(once);
  });

  it('writes copy from the video first, else the first image', () => {
    const img = { media_id: 'a', media_type: 'image', public_url: 'u', filename: 'a' };
    const vid = { media_id: 'b', media_type: 'video', public_url: 'v', filename: 'b' };
    expect(sourceMedium([img, vid])).toBe(vid);
    expect(sourceMedium([img])).toBe(img);
    expect(sourceMedium([])).toBeUndefined();
  });
});
