// A feed's post text from its template: {title}, {link} and {summary} replaced by the item's, in one pass (an item
// whose title contains "{link}" is not expanded again). Other braces are left as written.
import type { FeedEntry } from './parse.ts';

export const DEFAULT_TEMPLATE = '{title}\n\n{link}';
export const PLACEHOLDERS = ['title', 'link', 'summary'] as const;

export function renderTemplate(template: string, item: Pick<FeedEntry, 'title' | 'link' | 'summary'>): string {
  const values: Record<string, string> = { title: item.title, link: item.link ?? '', summary: item.summary };
  return template
    .replace(/\{(title|link|summary)\}/g, (_m, k: string) => values[k] ?? '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** What the AI generator is given for an item: its title, summary and link, as an idea. */
export function ideaOf(item: Pick<FeedEntry, 'title' | 'link' | 'summary'>): string {
  return [item.title, item.summary, item.link ? `Link to include: ${item.link}` : '']
    .filter(Boolean)
    .join('\n\n')
    .slice(0, 4000);
}
