// The built-in provider's copy: every network's limit as its contract counts (and emoji as UTF-8 bytes
// where a network counts graphemes), ideas in several languages and scripts, nothing invented, the
// idea's language kept, a different text per network, the same text for the same idea every time.
import { describe, expect, it } from 'vitest';
import { BuiltinProvider } from '../../../src/ai/builtin/index.ts';
import { detectLanguage } from '../../../src/ai/builtin/language.ts';
import { hashtags, keywords } from '../../../src/ai/builtin/keywords.ts';
import { clip, measure } from '../../../src/ai/builtin/text.ts';
import { hasVisibleText } from '../../../src/platforms/fields.ts';
import { NETWORKS } from '../../../src/platforms/registry.ts';
import { assertLength } from '../../../src/publishing/plan.ts';
import { threadsLength } from '../../../src/sandbox/core/text.ts';
import { network as quill } from '../../ninth-network/network.ts';
import { IDEAS } from './ideas.ts';

const networks = [...NETWORKS, quill];
const provider = new BuiltinProvider({ networks });
const slugs = networks.map((n) => n.slug);

const words = (text: string) =>
  Array.from(new Intl.Segmenter(undefined, { granularity: 'word' }).segment(text))
    .filter((s) => s.isWordLike)
    .map((s) => s.segment.toLowerCase());
const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}]/gu, '');

describe('copy per network', () => {
  for (const [name, idea] of Object.entries(IDEAS)) {
    it(`keeps every network's limits and the idea's words: ${name}`, async () => {
      const copies = await provider.copies(idea, slugs);
      const lowerIdea = idea.toLowerCase();
      for (const c of copies) {
        const n = networks.find((x) => x.slug === c.platform)!;
        const limit = n.capabilities.text!;
        // The publishing validator itself, then the strictest reading of a grapheme limit (emoji by bytes).
        expect(() => assertLength(n.slug, c.content, limit, 'content')).not.toThrow();
        if (limit.unit === 'graphemes')
          expect(threadsLength(c.content), `${n.slug}: ${c.content}`).toBeLessThanOrEqual(limit.max);
        expect(hasVisibleText(c.content), n.slug).toBe(true);
        for (const [field, value] of Object.entries(c.fields)) {
          expect(() => assertLength(n.slug, value, n.fields![field]!, field)).not.toThrow();
          expect(hasVisibleText(value)).toBe(true);
        }
        expect(Object.keys(c.fields).sort()).toEqual(Object.keys(n.fields ?? {}).sort());
        // Nothing invented: every word is the idea's (a clipped word is a start of one), every hashtag made of its letters.
        const body = c.content.replace(/#[\p{L}\p{M}\p{N}_]+/gu, ' ');
        for (const w of words(body)) expect(lowerIdea, `${n.slug} wrote "${w}"`).toContain(w);
        for (const t of c.hashtags) expect(letters(idea)).toContain(letters(t));
      }
    });
  }

  it("writes a different text for each of the registry's networks", async () => {
    // (A network beyond its kind's layouts, as the ninth here, shares one: layoutIndex.)
    for (const name of ['en', 'es', 'zh', 'ar', 'long']) {
      const copies = await provider.copies(
        IDEAS[name]!,
        NETWORKS.map((n) => n.slug),
      );
      expect(new Set(copies.map((c) => c.content)).size, name).toBe(copies.length);
    }
  });

  it("keeps the idea's language", async () => {
    for (const name of ['en', 'es', 'de', 'ru', 'zh', 'ja', 'ko', 'ar', 'he', 'hi']) {
      const idea = IDEAS[name]!;
      const lang = await detectLanguage(idea);
      expect(lang.code, name).toBe(name);
      for (const c of await provider.copies(idea, slugs)) {
        expect(c.language.code).toBe(name);
        if (measure(c.content, { unit: 'graphemes' }) >= 40)
          expect((await detectLanguage(c.content)).code, `${name} on ${c.platform}: ${c.content}`).toBe(name);
      }
    }
    expect((await detectLanguage(IDEAS.ar!)).dir).toBe('rtl');
    expect((await detectLanguage(IDEAS.he!)).dir).toBe('rtl');
    expect((await detectLanguage(IDEAS.en!)).dir).toBe('ltr');
  });

  it('follows each kind of network: titles, hooks, line breaks, hashtags', async () => {
    const by = Object.fromEntries((await provider.copies(IDEAS.en!, slugs)).map((c) => [c.platform, c]));
    // A title where the caption is one (limit ≤ 100): the first sentence, title-cased in English, no full stop.
    expect(by.youtube!.kind).toBe('title');
    expect(by.youtube!.fields.youtube_title).toBe(
      'Launch Day: Our New Espresso Bar Opens Monday at 8am in the Old Train Station',
    );
    expect(by.pinterest!.fields.pinterest_text).toBe(by.youtube!.fields.youtube_title);
    expect(by.pinterest!.fields.pinterest_description!.length).toBeGreaterThan(100);
    // Short networks start with a hook line.
    for (const s of ['threads', 'bluesky']) {
      expect(by[s]!.kind).toBe('short');
      expect(by[s]!.content.split('\n')[0]).toBe(
        'Launch day: our new espresso bar opens Monday at 8am in the old train station.',
      );
    }
    // LinkedIn: one thought per paragraph.
    expect(by.linkedin!.kind).toBe('long');
    expect(by.linkedin!.content.split('\n\n').length).toBeGreaterThanOrEqual(4);
    // Hashtags from the keywords, the idea's own kept where it wrote it.
    expect(by.instagram!.hashtags.length).toBeGreaterThanOrEqual(3);
    expect(by.instagram!.content).toContain('#coffee');
    expect(by.instagram!.hashtags).toContain('#espresso');
    // The URL survives whole wherever the copy is not cut before it.
    expect(by.linkedin!.content).toContain('https://example.com/espresso-bar');
  });

  it('gives the same copy for the same idea', async () => {
    for (const idea of Object.values(IDEAS)) {
      const a = await provider.copies(idea, slugs);
      const b = await new BuiltinProvider({ networks }).copies(idea, slugs);
      expect(b).toEqual(a);
    }
  });

  it('streams the same copy it returns', async () => {
    let streamed = '';
    const it = provider.stream(IDEAS.es!, 'linkedin');
    let r = await it.next();
    while (!r.done) {
      streamed += r.value;
      r = await it.next();
    }
    expect(streamed).toBe(r.value.content);
    expect(streamed).toBe((await provider.copy(IDEAS.es!, 'linkedin')).content);
  });
});

describe('text helpers', () => {
  it('clips at a grapheme, never inside an emoji sequence or a combining mark', () => {
    const family = '👩‍👩‍👧‍👦';
    for (let max = 1; max < 40; max++) {
      for (const unit of ['utf16', 'graphemes', 'bytes'] as const) {
        const out = clip(`${family} e\u0301te\u0301 ${family}${family} 🇺🇦 done`, { max, unit });
        expect(measure(out, { unit })).toBeLessThanOrEqual(max);
        // Every grapheme of the result is whole: re-segmenting the original around it finds it.
        expect(out.replace(/…$/, '')).toMatch(/^(?:👩‍👩‍👧‍👦|e\u0301|t|\s|🇺🇦|d|o|n|e)*$/u);
      }
    }
  });

  it('keeps a maxBytes limit beside the count', () => {
    const out = clip('é'.repeat(300), { max: 300, unit: 'graphemes', maxBytes: 100 });
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(100);
  });

  it('ranks keywords by frequency, position and names; drops stop words', () => {
    const k = keywords('The roaster roasts. The roaster smiles at Berlin and the roaster waves.', 'en').map(
      (x) => x.key,
    );
    expect(k[0]).toBe('roaster');
    expect(k).toContain('berlin');
    expect(k).not.toContain('the');
    expect(hashtags('Café #Latte in Paris, café au lait', 'fr', 2)).toEqual(['#Latte', '#café']);
  });
});
