// The direct commands' answers as markdown (src/agent/commands.ts): each tool's result read defensively (a tool
// answer is JSON, and a replayed or failed one may lack fields), lists as GFM tables, failures in the tool's words.
import type { ToolResult } from '../tools/tool.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** A network's display name by slug (the registry's, through the agent's vocabulary). */
export type NameOf = (slug: string) => string;

/** A tool's result as markdown, naming networks with `name`. */
export type Format = (r: ToolResult, name: NameOf) => Formatted;

/** One cell: a single line, pipes escaped, long text cut. */
function cell(v: unknown, max = 80): string {
  let s = str(v).replace(/\s+/g, ' ').trim();
  if ([...s].length > max) s = `${[...s].slice(0, max - 1).join('')}…`;
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|') || '—';
}

/** A GFM table. */
export function table(head: string[], rows: unknown[][]): string {
  return [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map((c) => cell(c)).join(' | ')} |`),
  ].join('\n');
}

export interface Formatted {
  text: string;
  tables: string[];
}

/** A tool's in-band failure, in its own words. */
export function failed(what: string, r: ToolResult): Formatted {
  const why = str(r.message) || str((r as Obj).detail) || 'The tool gave no reason.';
  return { text: `**Could not ${what}.** ${why}`, tables: [] };
}

export function accounts(r: ToolResult, networkName: NameOf): Formatted {
  const profiles = isObj(r.profiles) ? r.profiles : {};
  const rows = Object.entries(profiles).map(([p, v]) => {
    const o = isObj(v) ? v : {};
    return [
      networkName(p),
      o.name,
      o.handle ?? o.username,
      o.needs_reconnect === true ? 'needs reconnecting' : 'connected',
    ];
  });
  if (!rows.length)
    return {
      text: 'No accounts are connected to this workspace yet. Connect one from the dashboard (or `POST /unified/oauth/url`).',
      tables: [],
    };
  const t = table(['Network', 'Name', 'Handle', 'Status'], rows);
  return { text: `**Connected accounts** (${rows.length})\n\n${t}`, tables: [t] };
}

/** A post's text; for a tool action held for approval, what it will do. */
const textOf = (o: Obj): string =>
  str(o.default_text) ||
  str(isObj(o.post_data) ? o.post_data.default_text : '') ||
  str(isObj(o.action) ? o.action.summary : '');

export function queue(r: ToolResult, networkName: NameOf): Formatted {
  const parts: string[] = [];
  const tables: string[] = [];
  if (Array.isArray(r.scheduled_posts)) {
    const rows = list(r.scheduled_posts).map((s) => [
      networkName(str(s.platform)),
      s.scheduled_time_formatted || s.scheduled_time,
      s.status,
      textOf(s),
      s.scheduled_post_id,
    ]);
    if (rows.length) {
      const t = table(['Network', 'When', 'Status', 'Text', 'Id'], rows);
      tables.push(t);
      parts.push(`**Scheduled posts** (${rows.length})\n\n${t}`);
    } else parts.push('**Scheduled posts**: none.');
  }
  if (Array.isArray(r.drafts)) {
    const rows = list(r.drafts).map((d) => [networkName(str(d.platform)), d.status, textOf(d), d.updated_at, d.id]);
    if (rows.length) {
      const t = table(['Network', 'Status', 'Text', 'Updated', 'Id'], rows);
      tables.push(t);
      parts.push(`**Drafts** (${rows.length})\n\n${t}`);
    } else parts.push('**Drafts**: none.');
  }
  if (!parts.length) parts.push(str(r.message) || 'Nothing is queued.');
  return { text: parts.join('\n\n'), tables };
}

export function published(r: ToolResult, networkName: NameOf): Formatted {
  const tables: string[] = [];
  const parts: string[] = [];
  if (r.pending_approval === true) {
    const rows = list(r.drafts).map((d) => [networkName(str(d.platform)), d.draft_id ?? d.id, d.status]);
    const t = rows.length ? table(['Network', 'Draft', 'Status'], rows) : '';
    if (t) tables.push(t);
    return { text: [`**Waiting for approval.** ${str(r.message)}`.trim(), t].filter(Boolean).join('\n\n'), tables };
  }
  const results = list(r.results);
  if (results.length) {
    const t = table(
      ['Network', 'Result', 'Link or reason'],
      results.map((x) => [
        networkName(str(x.platform)),
        x.success === true ? 'published' : `failed${x.error ? ` (${str(x.error)})` : ''}`,
        x.success === true ? x.permalink || x.post_id : x.message,
      ]),
    );
    tables.push(t);
    const ok = results.filter((x) => x.success === true).length;
    parts.push(`**Published to ${ok} of ${results.length} networks.**\n\n${t}`);
  } else if (isObj(r.post) || (r.success === false && typeof r.message === 'string' && !r.drafts && !r.scheduled)) {
    const post = isObj(r.post) ? r.post : {};
    const where = networkName(str(post.platform) || str((r as Obj).platform));
    parts.push(
      r.success === false
        ? `**Not published${where ? ` to ${where}` : ''}.** ${str(r.message)}`
        : `**Published to ${where}.** ${str(post.permalink) || `Post id: ${str(post.post_id)}`}`,
    );
  }
  const drafts = list(r.drafts);
  if (drafts.length) {
    const t = table(
      ['Network', 'Draft id'],
      drafts.map((d) => [networkName(str(d.platform)), d.draft_id ?? d.id]),
    );
    tables.push(t);
    parts.push(`**Saved as drafts** (${drafts.length})\n\n${t}`);
  }
  const scheduled = list(r.scheduled);
  if (scheduled.length) {
    const t = table(
      ['Network', 'Scheduled for', 'Id'],
      scheduled.map((s) => [networkName(str(s.platform)), s.scheduled_time, s.scheduled_post_id]),
    );
    tables.push(t);
    parts.push(`**Scheduled** (${scheduled.length})\n\n${t}`);
  }
  if (!parts.length) parts.push(str(r.message) || (r.success ? 'Done.' : 'The post was not published.'));
  return { text: parts.join('\n\n'), tables };
}

export function copy(r: ToolResult, networkName: NameOf): Formatted {
  const data = isObj(r.data) ? r.data : {};
  const sections = Object.entries(data).map(([p, v]) => {
    const o = isObj(v) ? v : {};
    const body =
      typeof o.content === 'string'
        ? o.content
            .split('\n')
            .map((l) => `> ${l}`)
            .join('\n')
        : `Failed: ${str(o.error) || 'no copy'}`;
    return `**${networkName(p)}**\n\n${body}`;
  });
  const note = 'Nothing was published: to post one, send `publish "…" to <network>`.';
  return { text: [str(r.message), ...sections, note].filter(Boolean).join('\n\n'), tables: [] };
}

export function comments(r: ToolResult, networkName: NameOf): Formatted {
  const rows: unknown[][] = [];
  const notes: string[] = [];
  for (const [p, v] of Object.entries(r)) {
    if (!isObj(v) || !Array.isArray(v.posts)) continue;
    if (typeof v.error === 'string' || typeof v.message === 'string')
      notes.push(`${networkName(p)}: ${str(v.error) || str(v.message)}`);
    for (const post of list(v.posts))
      for (const c of list(post.comments))
        rows.push([networkName(p), c.author_name || c.commentor_name, c.text, c.created_at, post.post_id]);
  }
  const extra = notes.length ? `\n\n${notes.join('\n')}` : '';
  if (!rows.length) return { text: `No comments on the recent posts.${extra}`, tables: [] };
  const t = table(['Network', 'Author', 'Comment', 'When', 'Post'], rows.slice(0, 50));
  const more = rows.length > 50 ? `\n\n(${rows.length - 50} more not shown.)` : '';
  return { text: `**Recent comments** (${rows.length})\n\n${t}${more}${extra}`, tables: [t] };
}

const pct = (v: unknown) => (typeof v === 'number' ? `${(v * 100).toFixed(1)}%` : '—');

export function analytics(r: ToolResult, networkName: NameOf): Formatted {
  const platforms = isObj(r.platforms) ? r.platforms : {};
  const rows = Object.entries(platforms).map(([p, v]) => {
    const o = isObj(v) ? v : {};
    return [
      networkName(p),
      o.post_count,
      o.total_likes,
      o.total_comments,
      o.total_reach,
      o.error || o.message ? str(o.error) || str(o.message) : pct(o.average_engagement_rate),
    ];
  });
  const totals = isObj(r.totals) ? r.totals : null;
  if (totals)
    rows.push([
      '**All**',
      totals.post_count,
      totals.total_likes,
      totals.total_comments,
      totals.total_reach,
      pct(totals.average_engagement_rate),
    ]);
  if (!rows.length) return { text: 'No analytics yet: no connected network has posts Herald knows of.', tables: [] };
  const t = table(['Network', 'Posts', 'Likes', 'Comments', 'Reach', 'Engagement'], rows);
  const when = str(r.last_updated) ? ` (as of ${str(r.last_updated)})` : '';
  return { text: `**Analytics**${when}\n\n${t}`, tables: [t] };
}
