// Web search through the operator's own SearXNG instance (HERALD_SEARXNG_URL, its JSON API). The request goes
// through Herald's one outbound address policy: the configured origin is trusted as the networks' configured base
// URLs are (it is often on a private network); nothing else is reached — redirects are not followed and result
// URLs are only returned, never fetched.
import { z } from 'zod';
import type { Agent } from 'undici';
import { request } from 'undici';
import type { ToolServices } from './services.ts';
import { AppError } from '../errors.ts';
import { OutboundPolicy, refusalIn } from '../net/outbound-policy.ts';
import { defineTool } from './tool.ts';

const TIMEOUT_MS = 15_000;
const MAX_BYTES = 2 * 1024 * 1024;
const DEFAULT_RESULTS = 5;

/** One connection pool per app, through the policy. */
const agents = new WeakMap<ToolServices, Agent>();
function agentFor(app: ToolServices, base: string): Agent {
  let a = agents.get(app);
  if (!a) {
    a = new OutboundPolicy({ trustedOrigins: [base], trustedHosts: app.config.fetchAllowHosts }).agent({
      timeoutMs: TIMEOUT_MS,
      connections: 8,
    });
    agents.set(app, a);
  }
  return a;
}

const searxResult = z.looseObject({
  url: z.string(),
  title: z.string().optional(),
  content: z.string().optional(),
  engine: z.string().optional(),
  publishedDate: z.string().nullish(),
});
const searxAnswer = z.looseObject({ results: z.array(z.unknown()) });

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
const failed = (why: string) => new AppError('bad_gateway', `Web search failed: ${why}`);

export const webSearchSearxng = defineTool({
  name: 'web_search_searxng',
  description:
    "Search the web (titles, links and snippets) through this Herald's SearXNG. Use it for current facts, news or sources before writing a post; it does not open the pages. Free.",
  input: z.object({
    query: z.string().min(1).max(500).describe('What to search for.'),
    max_results: z.number().int().min(1).max(20).optional().describe('How many results (1–20, default 5).'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  effect: { kind: 'read' },
  credits: null,
  available: (app) => Boolean(app.config.searxngUrl),
  async run(ctx, args) {
    const base = ctx.app.config.searxngUrl;
    if (!base) throw new AppError('bad_request', 'Web search is not configured on this server (HERALD_SEARXNG_URL).');
    const query = args.query.trim();
    if (!query) throw new AppError('bad_request', 'query must not be empty.');
    const url = new URL('search', base.endsWith('/') ? base : `${base}/`);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    let body: unknown;
    try {
      const res = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        dispatcher: agentFor(ctx.app, base),
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
      if (res.statusCode !== 200) {
        await res.body.dump();
        throw failed(
          res.statusCode === 403
            ? 'the search server refused the JSON API (enable the json format in its settings).'
            : `the search server answered HTTP ${res.statusCode}.`,
        );
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_BYTES) {
          res.body.destroy();
          throw failed('the answer was too large.');
        }
        chunks.push(chunk as Buffer);
      }
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch (err) {
      if (err instanceof AppError) throw err;
      ctx.app.logger.warn({ err, refused: refusalIn(err)?.reason }, 'web search failed');
      throw failed(
        err instanceof SyntaxError
          ? 'the search server did not answer JSON.'
          : 'the search server could not be reached.',
      );
    }
    const parsed = searxAnswer.safeParse(body);
    if (!parsed.success) throw failed('the answer had no results list.');
    const max = args.max_results ?? DEFAULT_RESULTS;
    const results: { title: string; url: string; snippet: string; engine: string | null; published: string | null }[] =
      [];
    const seen = new Set<string>();
    for (const raw of parsed.data.results) {
      const r = searxResult.safeParse(raw);
      if (!r.success || !/^https?:\/\//i.test(r.data.url) || seen.has(r.data.url)) continue;
      seen.add(r.data.url);
      results.push({
        title: clip(r.data.title ?? '', 300),
        url: r.data.url,
        snippet: clip(r.data.content ?? '', 600),
        engine: r.data.engine ?? null,
        published: r.data.publishedDate ?? null,
      });
      if (results.length >= max) break;
    }
    return {
      success: true,
      query,
      results,
      message: results.length ? `${results.length} result${results.length === 1 ? '' : 's'}.` : 'No results.',
    };
  },
});
