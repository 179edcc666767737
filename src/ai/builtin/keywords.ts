// Keywords and hashtags from an idea's own words: word breaks by Intl.Segmenter (dictionary-based for
// Chinese, Japanese and Thai), stop words of the detected language (stopwords-iso, keyed by the same
// ISO 639-1 codes as the detector), ranked by how often, how early and how prominently a word occurs.
// No word is made up, translated or inflected.
import STOPWORDS from 'stopwords-iso' with { type: 'json' };

const LISTS = STOPWORDS as Record<string, readonly string[]>;
const cache = new Map<string, ReadonlySet<string>>();

/** The language's stop words, always with the English ones (ideas mix in English words). */
function stopWords(lang: string | null): ReadonlySet<string> {
  const key = lang ?? '';
  let set = cache.get(key);
  if (!set) {
    set = new Set([...(LISTS.en ?? []), ...((lang && LISTS[lang]) || [])].map((w) => w.toLowerCase()));
    cache.set(key, set);
  }
  return set;
}

// Scripts written without spaces: a two-character word there carries as much as a longer one elsewhere.
const DENSE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const HASHTAG = /(?<![\p{L}\p{N}_&])#([\p{L}\p{M}\p{N}_]*\p{L}[\p{L}\p{M}\p{N}_]*)/gu;
const URL = /https?:\/\/\S+/giu;
const MENTION = /(?<![\p{L}\p{N}_])@[\p{L}\p{N}_.-]+/gu;

export interface Keyword {
  /** As it first appears in the text. */
  word: string;
  /** Lower-cased, the form it is counted and compared in. */
  key: string;
  count: number;
  /** Index of its first occurrence among the text's words (from 1). */
  first: number;
  /** Written with a capital inside a sentence somewhere: likely a name. */
  name: boolean;
}

function segmenter(lang: string | null): Intl.Segmenter {
  try {
    return new Intl.Segmenter(lang ?? undefined, { granularity: 'word' });
  } catch {
    return new Intl.Segmenter(undefined, { granularity: 'word' });
  }
}

/** The hashtags the text already has (without '#'), in order, unique. */
export function hashtagsIn(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const m of text.matchAll(HASHTAG)) {
    const key = m[1]!.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      out.push(m[1]!);
    }
  }
  return out;
}

/** How telling a word is: repeated, early, a name (capitalised mid-sentence), long (up to a point). */
const score = (k: Keyword) =>
  k.count * 3 + (k.first <= 12 ? 2 : 0) + (k.name ? 2 : 0) + Math.min([...k.key].length, 10) / 5;

/** The text's content words, most telling first (ties: earlier first). */
export function keywords(text: string, lang: string | null, max = 8): Keyword[] {
  const stops = stopWords(lang);
  const words = new Map<string, Keyword>();
  const plain = text.replace(URL, ' ').replace(MENTION, ' ').replace(HASHTAG, ' ');
  let index = 0;
  let sentenceStart = true;
  for (const s of segmenter(lang).segment(plain)) {
    if (!s.isWordLike) {
      if (/[.!?。！？\n]/u.test(s.segment)) sentenceStart = true;
      continue;
    }
    const word = s.segment.replace(/^['’]+|['’]+$/gu, '');
    const name = !sentenceStart && /^\p{Lu}/u.test(word);
    sentenceStart = false;
    index++;
    if (!/\p{L}/u.test(word)) continue;
    const key = word.toLocaleLowerCase(lang ?? undefined);
    const size = [...word].length;
    if (size < (DENSE.test(word) ? 2 : 3) || stops.has(key)) continue;
    const k = words.get(key);
    if (k) {
      k.count++;
      k.name ||= name;
    } else words.set(key, { word, key, count: 1, first: index, name });
  }
  return [...words.values()].sort((a, b) => score(b) - score(a) || a.first - b.first).slice(0, max);
}

/** A keyword as a hashtag: letters, marks, digits and underscores only. */
export function asHashtag(word: string, lang: string | null): string | null {
  const body = word.toLocaleLowerCase(lang ?? undefined).replace(/[^\p{L}\p{M}\p{N}_]/gu, '');
  return /\p{L}/u.test(body) ? `#${body}` : null;
}

/** Up to `n` hashtags: the idea's own first, then its keywords'. */
export function hashtags(text: string, lang: string | null, n: number): string[] {
  if (n <= 0) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (tag: string | null) => {
    if (!tag) return;
    const key = tag.toLocaleLowerCase(lang ?? undefined);
    if (seen.has(key) || out.length >= n) return;
    seen.add(key);
    out.push(tag);
  };
  for (const t of hashtagsIn(text)) add(`#${t}`);
  for (const k of keywords(text, lang, n * 2)) add(asHashtag(k.word, lang));
  return out;
}
