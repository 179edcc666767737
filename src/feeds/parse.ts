// A feed document (RSS 0.9x–2.0, RDF, Atom, JSON Feed) as the items Herald posts, parsed by feedsmith. An item's key
// is its guid (or Atom/JSON id), else its link: the key is what dedupes it across polls.
import { createRequire } from 'node:module';

// feedsmith (~150 modules with its XML parser) is loaded by the first feed parsed, not at start-up.
const load = createRequire(import.meta.url);
const parseFeed: typeof import('feedsmith').parseFeed = (...args) =>
  (load('feedsmith') as typeof import('feedsmith')).parseFeed(...args);

export interface FeedEntry {
  key: string;
  title: string;
  link: string | null;
  summary: string;
  publishedAt: Date | null;
}

type Loose = Record<string, unknown>;

const str = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as Loose).value === 'string') return (v as Loose).value as string;
  return undefined;
};

const date = (v: unknown): Date | null => {
  if (typeof v !== 'string' && !(v instanceof Date)) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
};

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Markup out of a summary (feeds often put HTML there): tags dropped, common entities decoded, white space folded. */
export function plainText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const n = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
        return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

const httpLink = (v: string | undefined): string | null => {
  if (!v) return null;
  const t = v.trim();
  return /^https?:\/\//i.test(t) && URL.canParse(t) ? t : null;
};

function atomLink(links: unknown): string | undefined {
  if (!Array.isArray(links)) return undefined;
  const all = links as Loose[];
  const alternate = all.find((l) => (l.rel ?? 'alternate') === 'alternate' && typeof l.href === 'string');
  return (alternate?.href ?? all.find((l) => typeof l.href === 'string')?.href) as string | undefined;
}

function entry(raw: Loose, format: string): FeedEntry | null {
  let key: string | undefined;
  let link: string | undefined;
  let summary: string | undefined;
  let published: Date | null;
  if (format === 'atom') {
    link = atomLink(raw.links);
    key = str(raw.id) ?? link;
    summary = str(raw.summary) ?? str(raw.content);
    published = date(raw.published) ?? date(raw.updated);
  } else if (format === 'json') {
    link = str(raw.url) ?? str(raw.external_url);
    key = (typeof raw.id === 'number' ? String(raw.id) : str(raw.id)) ?? link;
    summary = str(raw.summary) ?? str(raw.content_text) ?? str(raw.content_html);
    published = date(raw.date_published) ?? date(raw.date_modified);
  } else {
    link = str(raw.link);
    key = str(raw.guid) ?? link;
    summary = str(raw.description) ?? str((raw.content as Loose | undefined)?.encoded);
    const dc = raw.dc as Loose | undefined;
    published = date(raw.pubDate) ?? date(dc?.date) ?? date(dc?.dates);
  }
  const title = plainText(str(raw.title) ?? '');
  if (!key?.trim()) return null;
  return {
    key: key.trim().slice(0, 2000),
    title,
    link: httpLink(link),
    summary: plainText(summary ?? ''),
    publishedAt: published,
  };
}

export class FeedParseError extends Error {
  override readonly name = 'FeedParseError';
}

/** The document's items, in document order; an unknown format or malformed document is a FeedParseError. */
export function parseItems(body: string): { format: string; title: string; items: FeedEntry[] } {
  let parsed: { format: string; feed: Loose };
  try {
    parsed = parseFeed(body) as unknown as { format: string; feed: Loose };
  } catch (err) {
    throw new FeedParseError(`not a feed this server reads (RSS, Atom or JSON Feed): ${(err as Error).message}`);
  }
  const { format, feed } = parsed;
  const list = (format === 'atom' ? feed.entries : feed.items) as Loose[] | undefined;
  const items = (list ?? []).map((r) => entry(r, format)).filter((e): e is FeedEntry => e !== null);
  return { format, title: plainText(str(feed.title) ?? ''), items };
}
