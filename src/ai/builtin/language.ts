// Which language an idea is written in (eld: n-gram detection, 60 languages, no model download) and
// which way it runs. The built-in provider writes nothing in a language of its own: it keeps the
// idea's words, and uses the language for word breaks, stop words, casing and text direction.

export interface Language {
  /** ISO 639-1 code, or null when the text is too short or too mixed to tell. */
  code: string | null;
  /** Whether the detector itself calls its answer reliable. */
  reliable: boolean;
  /** The direction of the text's first strong letters' majority: right-to-left for Arabic, Hebrew… */
  dir: 'ltr' | 'rtl';
}

type Detector = { detect(text: string): { language: string; isReliable(): boolean } };
let detector: Promise<Detector> | undefined;

/**
 * The detector's tables load on first use, not when Herald starts. The extra-small set (0.95 MB of source, the same
 * 60 languages with fewer n-grams): parsed, the small set (1.6 MB) kept ~130 MiB more resident memory than before it
 * loaded, this one ~80 MiB, and the ideas and copy of the provider's tests are told apart just as well.
 */
function loadDetector(): Promise<Detector> {
  detector ??= import('eld/extrasmall').then((m) => m.eld);
  return detector;
}

const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Adlam}]/gu;
const LETTER = /\p{L}/gu;
// Words that carry no language: links, handles, hashtags, numbers.
const NOISE = /https?:\/\/\S+|[@#][\p{L}\p{N}_]+|\p{N}+/gu;

export function direction(text: string): 'ltr' | 'rtl' {
  const rtl = text.match(RTL)?.length ?? 0;
  const letters = text.match(LETTER)?.length ?? 0;
  return rtl > 0 && rtl * 2 >= letters ? 'rtl' : 'ltr';
}

export async function detectLanguage(text: string): Promise<Language> {
  const words = text.replace(NOISE, ' ');
  const dir = direction(words);
  if (!/\p{L}/u.test(words)) return { code: null, reliable: false, dir };
  const result = (await loadDetector()).detect(words);
  return { code: result.language || null, reliable: Boolean(result.language) && result.isReliable(), dir };
}
