// The little markdown the agent writes (docs/agent.md: GFM tables, lists, bold, code, links), read into blocks the
// page renders as elements. Never HTML: text stays text, so nothing the model writes can inject markup.

export type Inline =
  | { kind: 'text' | 'strong' | 'em' | 'code'; text: string }
  | { kind: 'link'; text: string; href: string };

export type Block =
  | { kind: 'paragraph'; inline: Inline[] }
  | { kind: 'heading'; level: number; inline: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'table'; head: Inline[][]; rows: Inline[][][] }
  | { kind: 'code'; text: string };

const INLINE = /(\*\*([^*]+)\*\*|`([^`]+)`|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)|\*([^*\s][^*]*)\*|_([^_\s][^_]*)_)/g;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    if (m[2] !== undefined) out.push({ kind: 'strong', text: m[2] });
    else if (m[3] !== undefined) out.push({ kind: 'code', text: m[3] });
    else if (m[4] !== undefined && m[5] !== undefined) out.push({ kind: 'link', text: m[4], href: m[5] });
    else out.push({ kind: 'em', text: m[6] ?? m[7] ?? '' });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => parseInline(c.trim()));
const isDivider = (line: string | undefined) =>
  !!line && /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line);
const LIST = /^\s*([-*+]|\d+[.)])\s+(.*)$/;

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) blocks.push({ kind: 'paragraph', inline: parseInline(para.join('\n')) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('```')) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? '').startsWith('```'); i++) body.push(lines[i] ?? '');
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    if (line.includes('|') && isDivider(lines[i + 1])) {
      flush();
      const head = cells(line);
      const rows: Inline[][][] = [];
      for (i += 2; i < lines.length && (lines[i] ?? '').includes('|'); i++) rows.push(cells(lines[i] ?? ''));
      i--;
      blocks.push({ kind: 'table', head, rows });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, inline: parseInline(heading[2] ?? '') });
      continue;
    }
    const item = LIST.exec(line);
    if (item) {
      flush();
      const ordered = /\d/.test(item[1] ?? '');
      const items: Inline[][] = [];
      for (; i < lines.length; i++) {
        const m = LIST.exec(lines[i] ?? '');
        if (!m || /\d/.test(m[1] ?? '') !== ordered) break;
        items.push(parseInline(m[2] ?? ''));
      }
      i--;
      blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    if (line.trim() === '') flush();
    else para.push(line);
  }
  flush();
  return blocks;
}
