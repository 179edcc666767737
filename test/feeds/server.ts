// A feed publisher on loopback for the feed suites: documents set per path, an ETag and Last-Modified on each answer
// (304 when the request's validators match), a status or a delay to answer with instead, and a log of the requests
// with their conditional headers.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Served {
  body: string;
  type?: string;
  status?: number;
  /** Answer with these validators and honour them (default: on). */
  validators?: boolean;
}

export interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
  status: number;
}

export class FeedServer {
  readonly #server: Server;
  readonly docs = new Map<string, Served>();
  readonly log: Seen[] = [];
  url = '';

  constructor() {
    this.#server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const doc = this.docs.get(path);
      const done = (status: number) => this.log.push({ path, headers: req.headers, status });
      if (!doc) {
        res.writeHead(404).end('no such feed');
        return done(404);
      }
      if (doc.status && doc.status !== 200) {
        res.writeHead(doc.status).end('failure');
        return done(doc.status);
      }
      const etag = `"${hash(doc.body)}"`;
      const modified = 'Mon, 23 Nov 2026 10:00:00 GMT';
      if (doc.validators !== false && req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag }).end();
        return done(304);
      }
      const headers: Record<string, string> = { 'content-type': doc.type ?? 'application/rss+xml' };
      if (doc.validators !== false) Object.assign(headers, { etag, 'last-modified': modified });
      res.writeHead(200, headers).end(doc.body);
      done(200);
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const a = this.#server.address();
    this.url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
    return this;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

function hash(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}

export interface Item {
  id: string;
  title: string;
  link: string;
  summary?: string;
  date?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function rss(items: Item[], title = 'A blog'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>${esc(title)}</title><link>https://blog.example/</link><description>d</description>
${items
  .map(
    (i) => `<item><title>${esc(i.title)}</title><link>${esc(i.link)}</link><guid isPermaLink="false">${esc(i.id)}</guid>
<description>${esc(i.summary ?? '')}</description>${i.date ? `<pubDate>${new Date(i.date).toUTCString()}</pubDate>` : ''}</item>`,
  )
  .join('\n')}
</channel></rss>`;
}

export function atom(items: Item[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>An Atom feed</title><id>urn:feed</id><updated>2026-11-23T10:00:00Z</updated>
${items
  .map(
    (
      i,
    ) => `<entry><id>${esc(i.id)}</id><title type="text">${esc(i.title)}</title><link rel="alternate" href="${esc(i.link)}"/>
<summary type="html">${esc(i.summary ?? '')}</summary><updated>${i.date ?? '2026-11-23T10:00:00Z'}</updated></entry>`,
  )
  .join('\n')}
</feed>`;
}

export function jsonFeed(items: Item[]): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: 'A JSON feed',
    items: items.map((i) => ({
      id: i.id,
      url: i.link,
      title: i.title,
      summary: i.summary,
      content_text: i.summary ?? '',
      ...(i.date ? { date_published: i.date } : {}),
    })),
  });
}

export const items = (n: number, from = 1, day = '2026-11-20'): Item[] =>
  Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return {
      id: `post-${i}`,
      title: `Post ${i}`,
      link: `https://blog.example/p/${i}`,
      summary: `Summary of post ${i}`,
      date: new Date(Date.parse(`${day}T00:00:00Z`) + i * 60_000).toISOString(),
    };
  });
