// Copy for one network from an idea, by rules read off the network's contract: its caption limit and
// unit, whether it has a text route, and its secondary fields (titles, descriptions). The rules only
// rearrange the idea's own words (hook, body, line breaks, hashtags from its keywords); nothing is
// invented, so the copy stays in the idea's language.
import type { NetworkContract } from '../../platforms/contract.ts';
import type { TextLimit } from '../../platforms/types.ts';
import { hashtags, hashtagsIn } from './keywords.ts';
import type { Language } from './language.ts';
import { captionLimit, copyKind, TITLE_MAX, type CopyKind } from './kinds.ts';
import { clip, fits, graphemes, measure, tidy } from './text.ts';

/**
 * How a network's caption is written, from its contract:
 * - `title`: the caption is a title (limit ≤ 100), e.g. a video or pin title;
 * - `short`: a text network with a short limit (≤ 500): a hook first, few hashtags;
 * - `long`: a text network with room: a hook, then one thought per paragraph;
 * - `caption`: a caption under media (no text route): hook, body, a block of hashtags.
 */
export { captionLimit, copyKind, TITLE_MAX, type CopyKind } from './kinds.ts';

/**
 * Which of its kind's layouts a network gets: its place among the networks of the same kind, in
 * registry order, so two networks of one kind never get the same layout (while the kind has layouts).
 */
export function layoutIndex(networks: readonly NetworkContract[], slug: string): number {
  const me = networks.find((n) => n.slug === slug);
  if (!me) return 0;
  const kind = copyKind(me);
  return networks.filter((n) => copyKind(n) === kind).findIndex((n) => n.slug === slug);
}

export interface NetworkCopy {
  kind: CopyKind;
  /** The caption (or title, for `title` networks): within the network's caption limit. */
  text: string;
  /**
   * Copy for the contract's secondary text fields (titles, descriptions), by override field name, each within its
   * limit.
   */
  fields: Record<string, string>;
  /** The hashtags used in `text`. */
  hashtags: string[];
}

interface Parts {
  hook: string;
  /** The rest, one entry per sentence, with paragraph ends marked. */
  body: { sentence: string; paragraphEnd: boolean }[];
}

const CLAUSE = /[,:;–—，：；、]\s*/gu;
const HOOK_MAX = 90;

function sentences(paragraph: string, lang: string | null): string[] {
  let seg: Intl.Segmenter;
  try {
    seg = new Intl.Segmenter(lang ?? undefined, { granularity: 'sentence' });
  } catch {
    seg = new Intl.Segmenter(undefined, { granularity: 'sentence' });
  }
  return Array.from(seg.segment(paragraph), (s) => s.segment.trim()).filter(Boolean);
}

/** The idea as a hook (its first sentence, or that sentence's first clause when long) and the rest. */
export function parts(idea: string, lang: string | null): Parts {
  const paragraphs = tidy(idea).split(/\n+/).filter(Boolean);
  const all = paragraphs.flatMap((p) =>
    sentences(p, lang).map((sentence, i, list) => ({ sentence, paragraphEnd: i === list.length - 1 })),
  );
  const first = all.shift();
  if (!first) return { hook: '', body: [] };
  let hook = first.sentence;
  if (graphemes(hook).length > HOOK_MAX) {
    // Cut at the first clause mark past a few words and before the hook gets long.
    for (const m of hook.matchAll(CLAUSE)) {
      const at = graphemes(hook.slice(0, m.index)).length;
      if (at >= 15 && at <= HOOK_MAX) {
        all.unshift({ sentence: hook.slice(m.index + m[0].length), paragraphEnd: first.paragraphEnd });
        hook = hook.slice(0, m.index + m[0].length).trim();
        break;
      }
    }
  }
  return { hook, body: all };
}

const SMALL_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'but',
  'or',
  'nor',
  'for',
  'so',
  'yet',
  'as',
  'at',
  'by',
  'in',
  'of',
  'off',
  'on',
  'per',
  'to',
  'up',
  'via',
  'vs',
]);

/** A sentence as a title: no closing full stop; English gets title case (other languages keep their casing rules). */
export function asTitle(sentence: string, lang: string | null): string {
  const bare = sentence.replace(/[.。．।]+$/u, '').replace(/[,:;–—，：；、\s]+$/u, '');
  if (lang !== 'en') return bare;
  let i = 0;
  return bare.replace(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu, (w) => {
    const first = i++ === 0;
    if (w !== w.toLowerCase()) return w; // acronyms, names, iPhone
    if (!first && SMALL_WORDS.has(w)) return w;
    return w[0]!.toUpperCase() + w.slice(1);
  });
}

type Layout = (hook: string, body: Parts['body'], tags: string[]) => string;

const join = (...blocks: string[]) => blocks.filter(Boolean).join('\n\n');
/** Between two sentences of a paragraph: a space, none after a full-width stop (Chinese, Japanese). */
const after = (sentence: string) => (/[。！？]$/u.test(sentence) ? '' : ' ');
export const flat = (body: Parts['body']) => body.reduce((out, b) => out + b.sentence + after(b.sentence), '').trim();
const paragraphs = (body: Parts['body']) =>
  body.reduce((out, b) => out + b.sentence + (b.paragraphEnd ? '\n\n' : after(b.sentence)), '').trim();
const lines = (body: Parts['body']) => body.map((b) => b.sentence).join('\n\n');

/** Each kind's layouts: the first network of a kind gets the first, the second the next, and so on. */
const LAYOUTS: Record<Exclude<CopyKind, 'title'>, { tags: number; layout: Layout }[]> = {
  // A hook on its own line, then the rest, then one hashtag / or a single break and inline hashtags.
  short: [
    { tags: 1, layout: (h, b, t) => join(h, flat(b), t.join(' ')) },
    { tags: 2, layout: (h, b, t) => [h, [flat(b), t.join(' ')].filter(Boolean).join(' ')].filter(Boolean).join('\n') },
  ],
  // A hook, then one sentence per paragraph / the idea's own paragraphs; hashtags last.
  long: [
    { tags: 3, layout: (h, b, t) => join(h, lines(b), t.join(' ')) },
    { tags: 2, layout: (h, b, t) => join(h, paragraphs(b), t.join(' ')) },
  ],
  // Hook, body, a block of hashtags / one paragraph with the hashtags running on.
  caption: [
    { tags: 5, layout: (h, b, t) => join(h, paragraphs(b), t.join(' ')) },
    { tags: 4, layout: (h, b, t) => [h, flat(b), t.join(' ')].filter(Boolean).join(' ') },
  ],
};

/**
 * The layout with as much of the body as fits: the most whole sentences (fitting only gets harder with
 * each one, so a binary search finds them), then as much of the next one as fits, clipped. Null when
 * not even a start of the body fits beside the hook and hashtags.
 */
function fitBody(layout: Layout, p: Parts, tags: string[], limit: TextLimit): string | null {
  const at = (body: Parts['body']) => layout(p.hook, body, tags);
  if (!fits(at([]), limit)) return null;
  let lo = 0;
  let hi = p.body.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(at(p.body.slice(0, mid)), limit)) lo = mid;
    else hi = mid - 1;
  }
  const kept = p.body.slice(0, lo);
  const next = p.body[lo];
  if (next) {
    const before = at(kept);
    const sep = 2; // the longest break a layout puts before a sentence ('\n\n')
    const room = limit.max - measure(before, limit) - sep;
    const roomBytes = limit.maxBytes === undefined ? undefined : limit.maxBytes - Buffer.byteLength(before) - sep;
    if (room >= MIN_PART && (roomBytes === undefined || roomBytes >= MIN_PART)) {
      const part = clip(next.sentence, {
        max: room,
        unit: limit.unit,
        ...(roomBytes !== undefined ? { maxBytes: roomBytes } : {}),
      });
      const text = at([...kept, { sentence: part, paragraphEnd: true }]);
      if (part && fits(text, limit)) return text;
    }
  }
  return kept.length ? at(kept) : null;
}

/** Below this room a clipped sentence is more noise than text. */
const MIN_PART = 24;

/**
 * The first layout that fits: the whole body with all hashtags, then fewer; then the body shortened
 * (keeping up to two hashtags); last, the whole clipped.
 */
function fit(layout: Layout, p: Parts, tags: string[], limit: TextLimit): string {
  for (let k = tags.length; k >= 0; k--) {
    const text = layout(p.hook, p.body, tags.slice(0, k));
    if (fits(text, limit)) return text;
  }
  for (let k = Math.min(tags.length, 2); k >= 0; k--) {
    const text = fitBody(layout, p, tags.slice(0, k), limit);
    if (text) return text;
  }
  return clip(layout(p.hook, p.body, []), limit);
}

/** A title within `limit`, with up to `tags` hashtags when they fit. */
function title(p: Parts, lang: string | null, tags: string[], limit: TextLimit): string {
  const t = asTitle(p.hook, lang);
  for (let k = tags.length; k >= 1; k--) {
    const text = `${t} ${tags.slice(0, k).join(' ')}`;
    if (fits(text, limit)) return text;
  }
  return clip(t, limit);
}

/** The most hashtags any layout adds. */
const MAX_TAGS = Math.max(...Object.values(LAYOUTS).flatMap((l) => l.map((o) => o.tags)));

/** An idea taken apart once, for every network's copy. */
export interface Idea {
  lang: Language;
  parts: Parts;
  /** Hashtags to add, best first: from the keywords, none the idea already has. */
  tags: string[];
}

export function prepareIdea(idea: string, lang: Language): Idea {
  const own = new Set(hashtagsIn(idea).map((t) => `#${t}`.toLocaleLowerCase()));
  // Hashtags already written in the idea stay where they are; the added ones are the others.
  const tags = hashtags(idea, lang.code, MAX_TAGS + own.size)
    .filter((t) => !own.has(t.toLocaleLowerCase()))
    .slice(0, MAX_TAGS);
  return { lang, parts: parts(idea, lang.code), tags };
}

/** Copy for one network. `layout`: see layoutIndex. */
export function writeCopy(idea: Idea, network: NetworkContract, layout: number): NetworkCopy {
  const limit = captionLimit(network);
  const kind = copyKind(network);
  const { parts: p, lang } = idea;
  let text: string;
  let used: string[];
  if (kind === 'title') {
    // Titles: the first layout carries two hashtags when they fit, the next none.
    used = layout % 2 === 0 ? idea.tags.slice(0, 2) : [];
    text = title(p, lang.code, used, limit);
  } else {
    const options = LAYOUTS[kind];
    const chosen = options[layout % options.length]!;
    used = idea.tags.slice(0, chosen.tags);
    text = fit(chosen.layout, p, used, limit);
  }
  const fields: Record<string, string> = {};
  for (const [name, fieldLimit] of Object.entries(network.fields ?? {})) {
    fields[name] =
      fieldLimit.max <= TITLE_MAX
        ? title(p, lang.code, [], fieldLimit)
        : fit(LAYOUTS.long[1]!.layout, p, idea.tags.slice(0, 3), fieldLimit);
  }
  return { kind, text, fields, hashtags: used.filter((t) => text.includes(t)) };
}
