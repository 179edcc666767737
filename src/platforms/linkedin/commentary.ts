// LinkedIn's "little" text format for a post's `commentary`. `| { } @ [ ] ( ) < > # \ * _ ~` are reserved: outside
// an element each must be backslash-escaped, or LinkedIn answers 400 or silently drops everything from the first
// stray one on. Two elements are kept as they are, because a writer who typed them meant them: hashtags (`#word`
// starting a word) and mentions in LinkedIn's own syntax `@[Name](urn:li:person:…|urn:li:organization:…)`.

const RESERVED = new Set([...'|{}@[]()<>#\\*_~']);
// Sticky, so each is tried exactly at the current position without slicing the string.
const MENTION = /@\[[^\]\n]+\]\(urn:li:(?:person|organization|organizationBrand):[A-Za-z0-9_-]+\)/y;
const HASHTAG = /#[\p{L}\p{N}_]+/uy;
const WORD_CHAR = /[\p{L}\p{N}_]/u;

function matchAt(re: RegExp, text: string, at: number): string | null {
  re.lastIndex = at;
  return re.exec(text)?.[0] ?? null;
}

/** `text` as LinkedIn must receive it so that members read exactly `text` (hashtags and mentions stay live). */
export function escapeCommentary(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (ch === '@') {
      const mention = matchAt(MENTION, text, i);
      if (mention) {
        out += mention;
        i += mention.length;
        continue;
      }
    }
    // "C#" or "issue#12" is not a hashtag: only a `#` that starts a word opens one.
    if (ch === '#' && (i === 0 || !WORD_CHAR.test(text[i - 1] ?? ''))) {
      const tag = matchAt(HASHTAG, text, i);
      if (tag) {
        out += tag;
        i += tag.length;
        continue;
      }
    }
    out += RESERVED.has(ch) ? `\\${ch}` : ch;
    i += 1;
  }
  return out;
}
