// Rich-text facets for app.bsky.feed.post. Bluesky renders nothing by itself: a URL, @handle or #tag in the text is
// plain text unless a facet marks its range, and ranges are UTF-8 byte offsets (start inclusive, end exclusive) while
// JavaScript indexes strings in UTF-16 units, so every range is converted before it is sent.
import { isHandle } from './identity.ts';

export type FacetFeature =
  | { $type: 'app.bsky.richtext.facet#link'; uri: string }
  | { $type: 'app.bsky.richtext.facet#mention'; did: string }
  | { $type: 'app.bsky.richtext.facet#tag'; tag: string };

export interface Facet {
  index: { byteStart: number; byteEnd: number };
  features: FacetFeature[];
}

/** A detected range in UTF-16 indices; `value` is the URL, the handle (lowercased) or the tag without `#`. */
export interface Span {
  kind: 'link' | 'mention' | 'tag';
  start: number;
  end: number;
  value: string;
}

/** Resolves a handle to a DID; null when it does not resolve (the mention then stays plain text). */
export type HandleResolver = (handle: string) => Promise<string | null>;

// A link, mention or tag must start a word: `mail@example.com` is no mention and `page#top` no tag.
const WORD_START = /[\s([{"'“‘«]/u;
const LINK = /https?:\/\/[^\s<>"]+/giu;
const MENTION = /@([a-z0-9][a-z0-9.-]*[a-z0-9])/giu;
// `#` or the full-width `＃` Japanese keyboards produce; the tag runs to the next space or hash.
const TAG = /[#＃]([^\s#＃]+)/gu;
const TRAILING_PUNCT = /\p{P}+$/u;
const MAX_TAG_CHARS = 64;

function startsWord(text: string, index: number): boolean {
  return index === 0 || WORD_START.test(text[index - 1] ?? '');
}

/** Sentence punctuation after a URL is not part of it; a closing bracket is, when the URL opened one. */
function trimUrl(url: string): string {
  let out = url;
  for (;;) {
    const last = out.at(-1) ?? '';
    if ('.,;:!?\'"”’'.includes(last)) out = out.slice(0, -1);
    else if (last === ')' && out.split('(').length < out.split(')').length) out = out.slice(0, -1);
    else if (last === ']' && out.split('[').length < out.split(']').length) out = out.slice(0, -1);
    else return out;
  }
}

function links(text: string): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(LINK)) {
    if (!startsWord(text, m.index)) continue;
    const url = trimUrl(m[0]);
    // A bare scheme ("https://") or an unparsable remainder is not a link.
    if (!URL.canParse(url) || !new URL(url).hostname.includes('.')) continue;
    out.push({ kind: 'link', start: m.index, end: m.index + url.length, value: url });
  }
  return out;
}

function mentions(text: string): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(MENTION)) {
    if (!startsWord(text, m.index)) continue;
    const handle = (m[1] ?? '').replace(/\.+$/, '');
    if (!isHandle(handle.toLowerCase())) continue;
    out.push({ kind: 'mention', start: m.index, end: m.index + 1 + handle.length, value: handle.toLowerCase() });
  }
  return out;
}

function tags(text: string): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(TAG)) {
    if (!startsWord(text, m.index)) continue;
    const tag = (m[1] ?? '').replace(TRAILING_PUNCT, '');
    // A number is not a tag ("#1"), and Bluesky caps tags at 64 characters.
    if (!tag || /^\d+$/u.test(tag) || [...tag].length > MAX_TAG_CHARS) continue;
    out.push({ kind: 'tag', start: m.index, end: m.index + 1 + tag.length, value: tag });
  }
  return out;
}

/** Links, mentions and tags in text order; a range inside an earlier-found one (e.g. `#x` in a URL) is dropped. */
export function findSpans(text: string): Span[] {
  const kept: Span[] = [];
  for (const span of [...links(text), ...mentions(text), ...tags(text)]) {
    if (!kept.some((k) => span.start < k.end && k.start < span.end)) kept.push(span);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** UTF-8 byte offset of a UTF-16 index. */
export function byteOffset(text: string, index: number): number {
  return Buffer.byteLength(text.slice(0, index), 'utf8');
}

export async function buildFacets(text: string, resolve: HandleResolver): Promise<Facet[]> {
  const spans = findSpans(text);
  const dids = new Map<string, string | null>();
  for (const s of spans) if (s.kind === 'mention' && !dids.has(s.value)) dids.set(s.value, await resolve(s.value));
  const facets: Facet[] = [];
  for (const s of spans) {
    let feature: FacetFeature;
    if (s.kind === 'link') feature = { $type: 'app.bsky.richtext.facet#link', uri: s.value };
    else if (s.kind === 'tag') feature = { $type: 'app.bsky.richtext.facet#tag', tag: s.value };
    else {
      const did = dids.get(s.value);
      if (!did) continue;
      feature = { $type: 'app.bsky.richtext.facet#mention', did };
    }
    facets.push({
      index: { byteStart: byteOffset(text, s.start), byteEnd: byteOffset(text, s.end) },
      features: [feature],
    });
  }
  return facets;
}
