// The agent's answer built from the model's final text and the turn's tool results, deterministically: no
// structured-output call, so it works with any model that can write markdown. Tables and mermaid blocks are read out
// of the markdown (they stay in `response` too); image and video URLs come only from what tools returned (a
// generated image, a media item), never from URLs the model wrote, which it may have invented.
import type { AgentAnswer, AgentToolCall } from './answer.ts';

const FENCE = /^(```|~~~)/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;

/** The markdown's lines with those inside fenced code blocks marked. */
function linesOf(markdown: string): { text: string; fenced: boolean }[] {
  let open: string | null = null;
  return markdown.split(/\r?\n/).map((text) => {
    const fence = FENCE.exec(text.trim());
    if (fence) {
      if (open === null) open = fence[1]!;
      else if (text.trim().startsWith(open)) open = null;
      return { text, fenced: true };
    }
    return { text, fenced: open !== null };
  });
}

/** Every GFM table of the markdown outside code blocks (a header row, a separator row, then rows), in order. */
export function gfmTables(markdown: string): string[] {
  const lines = linesOf(markdown);
  const tables: string[] = [];
  for (let i = 0; i < lines.length - 1; i++) {
    const head = lines[i]!;
    const sep = lines[i + 1]!;
    if (
      head.fenced ||
      sep.fenced ||
      !head.text.includes('|') ||
      !TABLE_SEPARATOR.test(sep.text) ||
      !sep.text.includes('-')
    )
      continue;
    let end = i + 2;
    while (
      end < lines.length &&
      !lines[end]!.fenced &&
      lines[end]!.text.includes('|') &&
      lines[end]!.text.trim() !== ''
    )
      end++;
    tables.push(
      lines
        .slice(i, end)
        .map((l) => l.text.trimEnd())
        .join('\n'),
    );
    i = end - 1;
  }
  return tables;
}

/** The bodies of the markdown's ```mermaid blocks. */
export function mermaidBlocks(markdown: string): string[] {
  const out: string[] = [];
  const re = /^[ \t]*```[ \t]*mermaid[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```[ \t]*$/gim;
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) out.push(m[1]!.trim());
  return out.filter(Boolean);
}

/** Mermaid diagrams that chart numbers (xychart, pie), as markdown blocks. */
const isChart = (body: string) => /^(xychart(-beta)?|pie)\b/i.test(body.trim());

const HTTP = /^https?:\/\//i;

/**
 * Image and video URLs in a tool result: `image_url`/`video_url` fields, and media items (`public_url` with
 * `media_type`).
 */
export function mediaUrls(result: unknown): { images: string[]; videos: string[] } {
  const images: string[] = [];
  const videos: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 6 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.image_url === 'string' && HTTP.test(o.image_url)) images.push(o.image_url);
    if (typeof o.video_url === 'string' && HTTP.test(o.video_url)) videos.push(o.video_url);
    if (typeof o.public_url === 'string' && HTTP.test(o.public_url)) {
      if (o.media_type === 'image') images.push(o.public_url);
      if (o.media_type === 'video') videos.push(o.public_url);
    }
    for (const [k, x] of Object.entries(o))
      if (k !== 'image_url' && k !== 'video_url' && k !== 'public_url') walk(x, depth + 1);
  };
  walk(result, 0);
  return { images, videos };
}

/**
 * Tools whose results are media the turn produced, so their URLs belong in the answer (reads such as get_user_posts
 * list other posts' media).
 */
const PRODUCING = new Set(['content_to_image', 'upload_media', 'publish']);

/**
 * The answer from the model's final text and the turn's tool calls. `appendFooter` says whether a model wrote it
 * (a client shows its standard "written by AI" footer under model answers).
 */
export function buildAnswer(text: string, calls: readonly AgentToolCall[], appendFooter: boolean): AgentAnswer {
  const response = text.trim();
  const mermaid = mermaidBlocks(response);
  const images = new Set<string>();
  const videos = new Set<string>();
  for (const c of calls) {
    if (!PRODUCING.has(c.name) || c.result.success === false) continue;
    const found = mediaUrls(c.result);
    for (const u of found.images) images.add(u);
    for (const u of found.videos) videos.add(u);
  }
  return {
    response,
    tables_markdown: gfmTables(response).join('\n\n'),
    charts_markdown: mermaid
      .filter(isChart)
      .map((b) => `\`\`\`mermaid\n${b}\n\`\`\``)
      .join('\n\n'),
    mermaid_diagrams: mermaid,
    image_urls: [...images],
    video_urls: [...videos],
    append_footer: appendFooter,
  };
}
