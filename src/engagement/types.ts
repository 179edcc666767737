// The engagement folder's shared shapes: its dependencies, the wire records of posts, comments and figures, and the
// small helpers every piece uses to word a read's outcome.
import type { Logger } from 'pino';
import type { EngagementConfig } from '../config.ts';
import type { ConnectionRow, ConnectionStore } from '../connections/store.ts';
import type { TokenKeeper } from '../connections/tokens.ts';
import type { Engagement } from '../platforms/engagement.ts';
import type { PublishDestination } from '../platforms/publishing.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import type { PlatformError } from '../platforms/types.ts';
import type { EngagementStore, Sources } from './store.ts';

export interface EngagementDeps {
  store: EngagementStore;
  registry: PlatformRegistry;
  connections: ConnectionStore;
  tokens: TokenKeeper;
  clock: () => Date;
  logger: Logger;
  config: EngagementConfig;
  /** The public URL of a stored media object (the images of posts Herald published, listed from its ledger). */
  mediaUrl?: (storageKey: string) => string;
}

/** The destinations filter of a read, by the network's query parameter (facebook_page_ids …): ids as given. */
export type DestinationFilter = Partial<Record<string, string[]>>;

export interface ReadPlan {
  row: ConnectionRow;
  engagement: Engagement;
  /** Each source to read: the account itself (destination undefined) or one destination. */
  targets: { destination: PublishDestination | undefined; source: string | null }[];
  sources: Sources;
  /** Ids the caller named that are not among the account's destinations. */
  unknown: string[];
}

export interface PostRecord {
  post_id: string;
  commentary: string | null;
  published_at: string | null;
  type: string;
  images: unknown[];
  videos: unknown;
  permalink: string | null;
  like_count?: number;
  comment_count?: number;
  share_count?: number;
  impression_count?: number;
  reach?: number | null;
  source_page_id: string | null;
  ai_watcher_enabled: boolean;
  /** The ledger id of the Herald post that published it, when Herald did. */
  herald_post_id: string | null;
  last_refreshed_at: string;
}

export interface PostsSlice {
  posts: PostRecord[];
  source: 'database' | 'api' | null;
  last_updated: string | null;
  message?: string;
  error?: string;
}

export interface CommentRecord {
  id: string;
  type: 'comment' | 'reply';
  text: string;
  author_name: string;
  commentor_name: string;
  author_id: string | null;
  author_profile_image_url: string | null;
  created_at: string | null;
  like_count: number;
  reply_count: number;
  parent_id: string | null;
  replies: CommentRecord[];
  platform_meta: { is_hidden: boolean };
  /** Written by the connected account itself (its first comment, a reply sent from Herald): never unread. */
  own: boolean;
}

export interface CommentsPostEntry {
  post_id: string;
  page_id: string | null;
  comments_disabled: boolean;
  comment_status: 'ok' | 'error' | 'disabled';
  comment_status_message: string | null;
  comments: CommentRecord[];
  [key: string]: unknown;
}

export interface CommentsSlice {
  posts: CommentsPostEntry[];
  last_updated: string | null;
  message?: string;
  error?: string;
}

export interface AnalyticsFigures {
  post_count: number;
  total_likes: number;
  total_comments: number;
  total_reach: number;
  average_engagement_rate: number;
  message: string | null;
  error: string | null;
}

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** (likes + comments) / reach, capped at 1; 0 without reach. */
export function engagementRate(likes: number, comments: number, reach: number): number {
  if (reach <= 0) return 0;
  return Math.min(1, (likes + comments) / reach);
}

export function notConnected(name: string): string {
  return `${name} not connected for this workspace.`;
}

export function wireError(err: PlatformError): string {
  return err.kind === 'reauth_required'
    ? 'NEEDS_RECONNECT'
    : err.kind === 'rate_limited'
      ? 'RATE_LIMITED'
      : 'PLATFORM_ERROR';
}
