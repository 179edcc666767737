// LinkedIn's "little" text format for `commentary`: `| { } @ [ ] ( ) < > # \ * _ ~` are reserved and must be
// backslash-escaped outside elements. Elements are mentions `@[Name](urn:li:person:…|urn:li:organization:…)` and
// hashtags `#tag` (or the template `{hashtag|\#|tag}`, which is what a GET returns). As the reference describes,
// the API refuses a malformed element (400) and silently drops the text from the first unescaped reserved
// character that starts no element — the post is created, members see the truncated text.
const RESERVED = new Set([...'|{}@[]()<>#\\*_~']);
const MENTION_URN = /^urn:li:(person|organization|organizationBrand):[A-Za-z0-9_-]+$/;
const HASHTAG = /^#([\p{L}\p{N}_]+)/u;
const TEMPLATE = /^\{hashtag\|\\#\|([\p{L}\p{N}_]+)\}/u;

export type LittleText =
  | {
      ok: true;
      /**
       * The commentary as stored and returned by GET (hashtags in template form, text after a stray reserved char
       * dropped).
       */
      stored: string;
      /** What members read: escapes resolved, mentions as their names. */
      plain: string;
      /** Whether text was dropped at an unescaped reserved character. */
      truncated: boolean;
      mentions: string[];
      hashtags: string[];
    }
  | { ok: false; message: string };

export function parseLittleText(input: string): LittleText {
  let stored = '';
  let plain = '';
  const mentions: string[] = [];
  const hashtags: string[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i] ?? '';
    const rest = input.slice(i);
    if (ch === '\\') {
      const next = input[i + 1];
      if (next === undefined) break;
      stored += `\\${next}`;
      plain += next;
      i += 2;
      continue;
    }
    if (rest.startsWith('@[')) {
      const close = rest.indexOf('](');
      const end = close < 0 ? -1 : rest.indexOf(')', close);
      if (close < 0 || end < 0) break;
      const name = rest.slice(2, close);
      const urn = rest.slice(close + 2, end);
      if (!MENTION_URN.test(urn))
        return {
          ok: false,
          message: `Invalid mention "${rest.slice(0, end + 1)}": ${urn} is not a person or organization URN`,
        };
      stored += rest.slice(0, end + 1);
      plain += name;
      mentions.push(urn);
      i += end + 1;
      continue;
    }
    const template = TEMPLATE.exec(rest);
    const hashtag = template ?? HASHTAG.exec(rest);
    if (hashtag && (template || ch === '#')) {
      const tag = hashtag[1] ?? '';
      stored += `{hashtag|\\#|${tag}}`;
      plain += `#${tag}`;
      hashtags.push(tag);
      i += hashtag[0].length;
      continue;
    }
    if (RESERVED.has(ch))
      return { ok: true, stored: stored.trimEnd(), plain: plain.trimEnd(), truncated: true, mentions, hashtags };
    stored += ch;
    plain += ch;
    i += 1;
  }
  const truncated = i < input.length;
  return {
    ok: true,
    stored: truncated ? stored.trimEnd() : stored,
    plain: truncated ? plain.trimEnd() : plain,
    truncated,
    mentions,
    hashtags,
  };
}

/** Escapes a plain string for `commentary` (what a correct adapter does before posting). */
export function escapeLittleText(text: string): string {
  return [...text].map((c) => (RESERVED.has(c) ? `\\${c}` : c)).join('');
}
