// Feed documents in each format Herald reads become the same items: key (guid or id, else link), title, link,
// summary as plain text, date. A document that is no feed is refused in words.
import { describe, expect, it } from 'vitest';
import { parseItems, plainText } from '../../src/feeds/index.ts';
import { FeedParseError } from '../../src/feeds/parse.ts';
import { renderTemplate } from '../../src/feeds/template.ts';
import { atom, jsonFeed, rss } from './server.ts';

const one = [
  {
    id: 'urn:1',
    title: 'Hello & welcome',
    link: 'https://blog.example/hello',
    summary: '<p>First <b>post</b> &amp; more</p>',
    date: '2026-11-20T08:00:00.000Z',
  },
];

describe('parsing', () => {
  it.each([
    ['rss', rss(one)],
    ['atom', atom(one)],
    ['json', jsonFeed(one)],
  ])('reads %s', (format, doc) => {
    const parsed = parseItems(doc);
    expect(parsed.format).toBe(format);
    expect(parsed.items).toHaveLength(1);
    const [item] = parsed.items;
    expect(item).toMatchObject({ key: 'urn:1', title: 'Hello & welcome', link: 'https://blog.example/hello' });
    expect(item!.summary).toBe('First post & more');
    expect(item!.publishedAt?.toISOString()).toBe('2026-11-20T08:00:00.000Z');
  });

  it('keys an item without a guid by its link, and drops one with neither', () => {
    const doc = `<rss version="2.0"><channel><title>t</title>
      <item><title>A</title><link>https://blog.example/a</link></item>
      <item><title>No key</title></item></channel></rss>`;
    expect(parseItems(doc).items.map((i) => i.key)).toEqual(['https://blog.example/a']);
  });

  it('keeps only http(s) links', () => {
    const doc = rss([{ id: 'x', title: 'x', link: 'javascript:alert(1)' }]);
    expect(parseItems(doc).items[0]!.link).toBeNull();
  });

  it('refuses what is not a feed', () => {
    expect(() => parseItems('<html><body>hi</body></html>')).toThrow(FeedParseError);
    expect(() => parseItems('{"not":"a feed"}')).toThrow(FeedParseError);
  });

  it('turns markup into plain text', () => {
    expect(plainText('<p>a&nbsp;b &#233; &#x263A;</p><script>x()</script>')).toBe('a b é ☺');
  });
});

describe('templates', () => {
  const item = { title: 'T {link}', link: 'https://l.example/x', summary: 'S' };
  it('replaces the placeholders once, leaving other braces', () => {
    expect(renderTemplate('{title} — {summary}\n{link} {other}', item)).toBe(
      'T {link} — S\nhttps://l.example/x {other}',
    );
  });
  it('folds the blank lines an empty field leaves', () => {
    expect(renderTemplate('{title}\n\n{summary}\n\n{link}', { ...item, summary: '' })).toBe(
      'T {link}\n\nhttps://l.example/x',
    );
  });
});
