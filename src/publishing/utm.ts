// UTM parameters added to the links of a post's text when it goes to a network: `utm_source` is the network, the
// campaign, medium and content come from the post's `utm` (or that network's entry in `utm.networks`). Only http(s)
// links are touched; a link's own query parameters stay, and a utm_* parameter it already has is left as written;
// the fragment stays last. The stored post keeps the text as written: this runs when targets are planned.
// No imports: the web app's composer preview runs this same function.

export interface UtmParams {
  campaign?: string | undefined;
  medium?: string | undefined;
  content?: string | undefined;
}

/** A post's `utm`: the campaign for every network, and per-network overrides (`false`: no UTM for that network). */
export interface UtmSetting extends UtmParams {
  networks?: Record<string, UtmParams | false> | undefined;
}

export const DEFAULT_UTM_MEDIUM = 'social';

// A link runs to white space or a character that cannot end a URL in running text.
const LINK = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const TRAILING = /[.,;:!?'"»”’)\]}]+$/;

/** The parameters for one network, or null when it gets none (no campaign, or switched off). */
export function utmFor(setting: UtmSetting | undefined, network: string): Required<UtmParams> | null {
  if (!setting) return null;
  const own = setting.networks?.[network];
  if (own === false) return null;
  const campaign = own?.campaign ?? setting.campaign;
  if (!campaign) return null;
  return {
    campaign,
    medium: own?.medium ?? setting.medium ?? DEFAULT_UTM_MEDIUM,
    content: own?.content ?? setting.content ?? '',
  };
}

/** Trailing punctuation is not part of a link, except a closing parenthesis the link itself opened. */
function splitTrailing(raw: string): [string, string] {
  const m = TRAILING.exec(raw);
  if (!m) return [raw, ''];
  let link = raw.slice(0, m.index);
  let tail = m[0];
  while (tail.startsWith(')') && (link.match(/\(/g)?.length ?? 0) > (link.match(/\)/g)?.length ?? 0)) {
    link += ')';
    tail = tail.slice(1);
  }
  return [link, tail];
}

/** One link with the parameters added (those it already has kept as they are). */
export function tagLink(link: string, source: string, p: Required<UtmParams>): string {
  const hash = link.indexOf('#');
  const base = hash === -1 ? link : link.slice(0, hash);
  const fragment = hash === -1 ? '' : link.slice(hash);
  const q = base.indexOf('?');
  const query = q === -1 ? '' : base.slice(q + 1);
  const have = new Set(
    query
      .split('&')
      .filter(Boolean)
      .map((kv) => {
        try {
          return decodeURIComponent(kv.split('=')[0]!.replace(/\+/g, ' ')).toLowerCase();
        } catch {
          return kv.split('=')[0]!.toLowerCase();
        }
      }),
  );
  const add = (
    [
      ['utm_source', source],
      ['utm_medium', p.medium],
      ['utm_campaign', p.campaign],
      ['utm_content', p.content],
    ] as const
  )
    .filter(([k, v]) => v !== '' && !have.has(k))
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  if (!add.length) return link;
  const joiner = q === -1 ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${joiner}${add.join('&')}${fragment}`;
}

/** The text with every http(s) link tagged for `network`; unchanged when the network gets no UTM. */
export function applyUtm(text: string, setting: UtmSetting | undefined, network: string): string {
  const p = utmFor(setting, network);
  if (!p) return text;
  return text.replace(LINK, (raw) => {
    const [link, tail] = splitTrailing(raw);
    // Only links that parse as URLs with a host: "https://" alone or a broken link is left as written.
    if (!URL.canParse(link) || !new URL(link).hostname) return raw;
    return tagLink(link, network, p) + tail;
  });
}
