// An event of the feed: its name, and what it points at (its post, whose timeline the posts page opens, or its
// connection).
import { t } from '../../i18n/index.ts';

export interface EventLike {
  type: string;
  post_id: string | null;
  platform: string | null;
  data?: unknown;
}

export type EventLink = { kind: 'post' | 'connection'; href: string } | null;

/** The page an event names: `/posts?post=<id>` for a post, `/connections?platform=<network>` for an account. */
export function eventLink(event: EventLike): EventLink {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const post = event.post_id ?? (typeof data.scheduled_post_id === 'string' ? data.scheduled_post_id : null);
  if (event.type.startsWith('post.') && post) return { kind: 'post', href: `/posts?post=${encodeURIComponent(post)}` };
  const platform = event.platform ?? (typeof data.platform === 'string' ? data.platform : null);
  if (event.type.startsWith('account.') && platform)
    return { kind: 'connection', href: `/connections?platform=${encodeURIComponent(platform)}` };
  return null;
}

/** An event type's name for people; the type itself when the app does not know it. */
export const eventTypeName = (type: string): string => t.events.types[type] ?? type;
