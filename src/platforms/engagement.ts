// The read side of the adapter contract: an account's recent posts with their numbers, the comments under a post,
// the replies under a comment, creating a reply, and deleting a post. Like publishing, every call is one network's
// real API over HTTP with tokens passed in; failures are PlatformErrors. Herald stores what these return (the posts
// read model, the comments inbox, metric snapshots) and never asks a network for an object the workspace has not seen.
import type { PublishDestination } from './publishing.ts';
import type { TextLimit, TokenSet } from './types.ts';

/** A post's numbers as the network counts them; absent = the network gives no such figure (Herald stores 0). */
export interface PostMetrics {
  likes: number;
  comments: number;
  shares: number;
  /** Impressions, or views where the network only counts views (YouTube, TikTok). */
  impressions: number;
  /** Unique accounts reached, where the network reports it (Instagram, Facebook); else Herald uses impressions. */
  reach?: number | undefined;
}

export interface RemotePost {
  /** The network's post id in the format publishing returned (interface "Post identifiers"). */
  postId: string;
  commentary: string | null;
  /** ISO 8601. */
  publishedAt: string | null;
  type: 'text' | 'image' | 'video' | 'carousel';
  images: { url: string | null; width?: number | undefined; height?: number | undefined }[];
  video: { videoUrl: string | null; thumbnailUrl: string | null } | null;
  permalink: string | null;
  /** The page / organization / board / channel the post belongs to, when not the account itself. */
  sourcePageId: string | null;
  metrics: PostMetrics;
  /** The network says comments are turned off on this post. */
  commentsDisabled?: boolean | undefined;
}

export interface RemoteComment {
  /** The network's comment id (LinkedIn comment URN, Bluesky at:// URI, YouTube comment id …). */
  id: string;
  /** The comment this one answers; null for a top-level comment. */
  parentId: string | null;
  text: string;
  authorName: string;
  authorId: string | null;
  authorAvatarUrl: string | null;
  /** ISO 8601. */
  createdAt: string | null;
  likeCount: number;
  replyCount: number;
  /** Hidden by the page's moderation (Facebook, Instagram). */
  hidden?: boolean | undefined;
  /** Replies the network returned inline with the comment (YouTube, Facebook, Bluesky threads). */
  replies?: RemoteComment[] | undefined;
  /**
   * Network-specific ids Herald must keep to reply later (a Bluesky comment's CID and thread root, a YouTube
   * thread's top-level comment id). Stored with the comment, never shown.
   */
  refs?: Record<string, string> | undefined;
}

/** Where a post lives, when not on the account itself (a Facebook Page, a LinkedIn organization, a board). */
export interface ReadTarget {
  destination?: PublishDestination | undefined;
}

export interface CommentsPage {
  comments: RemoteComment[];
  /** The network says comments are turned off on this post. */
  disabled?: boolean | undefined;
}

export interface Comments {
  /** Top-level comments of a post, newest first, at most `limit`, with the replies the network returns inline. */
  list(tokens: TokenSet, p: ReadTarget & { postId: string; limit: number }): Promise<CommentsPage>;
  /** Replies under one comment, at most `limit`. */
  replies(
    tokens: TokenSet,
    p: ReadTarget & { postId: string; commentId: string; refs?: Record<string, string> | undefined; limit: number },
  ): Promise<RemoteComment[]>;
  /** Posts `text` as a reply under `commentId` (already validated against `textLimit`); the reply's id. */
  reply(
    tokens: TokenSet,
    p: ReadTarget & { postId: string; commentId: string; refs?: Record<string, string> | undefined; text: string },
  ): Promise<{ replyId: string }>;
  /**
   * Posts `text` under the account's own post as a top-level comment, or as a reply in the post's thread where that is
   * the network's form (Threads, Bluesky): a post's first comment. The comment's id. Absent where the network's
   * contract declares no `firstComment`. `permalink`: the comment's web address, where the network's id gives one.
   */
  comment?(
    tokens: TokenSet,
    p: ReadTarget & { postId: string; text: string },
  ): Promise<{ commentId: string; permalink?: string | undefined }>;
  /** The network's limit for a comment's text. */
  textLimit: TextLimit;
}

export interface Engagement {
  /** The account's (or destination's) recent posts, newest first, at most `limit`, with their metrics. */
  listPosts(tokens: TokenSet, p: ReadTarget & { limit: number }): Promise<RemotePost[]>;
  /** One post, fresh; null when the network no longer has it. */
  getPost(tokens: TokenSet, p: ReadTarget & { postId: string }): Promise<RemotePost | null>;
  /**
   * A post's numbers alone, where the network lets the account read the numbers of a post it may not read itself
   * (a LinkedIn member's own posts: r_member_postAnalytics without the closed r_member_social). For posts Herald
   * published (it knows their ids from the ledger); null when the network no longer has the post. Absent elsewhere.
   */
  getMetrics?(tokens: TokenSet, p: ReadTarget & { postId: string }): Promise<PostMetrics | null>;
  /** Comment access; absent when the network's public API offers none for the scopes Herald holds. */
  comments?: Comments | undefined;
  /** Why comments are not available on this network (shown as the slice's `message`), when `comments` is absent. */
  commentsUnavailable?: string | undefined;
  /** Deletes a published post; absent when the network's API cannot (the reason is `deleteUnavailable`). */
  deletePost?(tokens: TokenSet, p: ReadTarget & { postId: string }): Promise<void>;
  deleteUnavailable?: string | undefined;
}
