// UTM parameters go on the text's http(s) links when targets are planned, per network (utm_source), keeping each
// link's own query and fragment; the body as sent (what drafts and scheduled posts store) keeps the text as written.
import { describe, expect, it } from 'vitest';
import { planTargets } from '../../src/publishing/plan.ts';
import { postBodies } from '../../src/publishing/schemas.ts';
import { applyUtm, tagLink } from '../../src/publishing/utm.ts';
import { Networks } from '../../src/platforms/registry.ts';

const networks = new Networks();

describe('applyUtm', () => {
  const s = { campaign: 'launch' };
  it('tags every http(s) link and nothing else', () => {
    const text = 'Read https://a.example/x and http://b.example/y; not ftp://c.example/z nor mailto:me@d.example';
    expect(applyUtm(text, s, 'threads')).toBe(
      'Read https://a.example/x?utm_source=threads&utm_medium=social&utm_campaign=launch and ' +
        'http://b.example/y?utm_source=threads&utm_medium=social&utm_campaign=launch; not ftp://c.example/z nor mailto:me@d.example',
    );
  });

  it('keeps existing parameters (its own utm_* included) and puts the fragment last', () => {
    expect(applyUtm('https://a.example/p?id=7&utm_source=news#part-2.', s, 'linkedin')).toBe(
      'https://a.example/p?id=7&utm_source=news&utm_medium=social&utm_campaign=launch#part-2.',
    );
  });

  it('leaves trailing punctuation and an enclosing parenthesis outside, keeps a parenthesis of the link', () => {
    expect(applyUtm('(see https://w.example/A_(b)), ok', s, 'bluesky')).toBe(
      '(see https://w.example/A_(b)?utm_source=bluesky&utm_medium=social&utm_campaign=launch), ok',
    );
  });

  it('encodes values and follows per-network overrides', () => {
    const setting = {
      campaign: 'black friday',
      content: 'v&1',
      networks: { threads: false as const, bluesky: { campaign: 'bsky', medium: 'feed' } },
    };
    expect(applyUtm('https://a.example', setting, 'threads')).toBe('https://a.example');
    expect(applyUtm('https://a.example', setting, 'bluesky')).toBe(
      'https://a.example?utm_source=bluesky&utm_medium=feed&utm_campaign=bsky&utm_content=v%261',
    );
    expect(applyUtm('https://a.example', setting, 'linkedin')).toContain('utm_campaign=black%20friday');
  });

  it('does nothing without a campaign, or to a link that does not parse', () => {
    expect(applyUtm('https://a.example', { medium: 'x' }, 'threads')).toBe('https://a.example');
    expect(applyUtm('https:// nothing', s, 'threads')).toBe('https:// nothing');
    expect(tagLink('https://a.example/?', 'x', { campaign: 'c', medium: 'm', content: '' })).toBe(
      'https://a.example/?utm_source=x&utm_medium=m&utm_campaign=c',
    );
  });
});

describe('at planning', () => {
  it('targets carry the tagged text, the body keeps the text as written', () => {
    const body = postBodies(networks.networks).text.parse({
      platforms: ['threads', 'bluesky'],
      default_text: 'New: https://blog.example/p/1?ref=x#top and https://blog.example/p/2',
      utm: { campaign: 'launch', networks: { bluesky: { content: 'b' } } },
    });
    const targets = planTargets({ networks, postType: 'text', body: body as never });
    expect(targets.map((t) => [t.platform, t.text])).toEqual([
      [
        'threads',
        'New: https://blog.example/p/1?ref=x&utm_source=threads&utm_medium=social&utm_campaign=launch#top and https://blog.example/p/2?utm_source=threads&utm_medium=social&utm_campaign=launch',
      ],
      [
        'bluesky',
        'New: https://blog.example/p/1?ref=x&utm_source=bluesky&utm_medium=social&utm_campaign=launch&utm_content=b#top and https://blog.example/p/2?utm_source=bluesky&utm_medium=social&utm_campaign=launch&utm_content=b',
      ],
    ]);
    expect((body as { default_text: string }).default_text).toBe(
      'New: https://blog.example/p/1?ref=x#top and https://blog.example/p/2',
    );
  });

  it('a text the parameters push over a network limit is refused', () => {
    const text = `${'x'.repeat(270)} https://blog.example/p`;
    const body = { platforms: ['bluesky'], default_text: text, utm: { campaign: 'c' } };
    expect(() => planTargets({ networks, postType: 'text', body })).toThrow(/bluesky/i);
  });
});
