// The publishing half of the adapter contract. Herald resolves everything network-neutral first
// (which text, which media, which page/board/channel), then hands one PublishRequest per target to
// the network's publisher. Every irreversible step goes through the journal before the next call,
// so a retry or a restarted worker continues or reconciles instead of posting twice.
import type { Readable } from 'node:stream';
import type { TokenSet } from './types.ts';

export type PostType = 'text' | 'image' | 'carousel' | 'video';

export interface PublishMedia {
  /** Herald media id. */
  id: string;
  kind: 'image' | 'video';
  /** Public HTTPS URL on Herald's storage (networks that pull by URL fetch this). */
  url: string;
  mime: string;
  /** e.g. jpeg, png, mp4, mov */
  format: string;
  size: number;
  width?: number | null;
  height?: number | null;
  durationSec?: number | null;
  altText?: string | null;
  /** The bytes, for networks that take uploads. Each call opens a new stream; `end` is inclusive. */
  open(range?: { start: number; end: number }): Promise<Readable>;
}

/** Where on the network the post goes; absent = the connected account itself. */
export interface PublishDestination {
  kind: 'personal' | 'page' | 'organization' | 'board' | 'channel';
  id: string;
}

export interface PublishRequest {
  postType: PostType;
  /** The caption/commentary for this network and destination, after overrides. */
  text: string;
  /** YouTube video title, Pinterest pin title, TikTok photo title. */
  title?: string | undefined;
  /** YouTube description, Pinterest description. */
  description?: string | undefined;
  /** Images in order, or exactly one video. */
  media: PublishMedia[];
  thumbnail?: PublishMedia | undefined;
  destination?: PublishDestination | undefined;
  visibility?: 'PUBLIC' | 'CONNECTIONS' | undefined;
  /** Network-specific options validated by Herald (TikTok privacy and toggles, YouTube playlist, cover index…). */
  options: Record<string, unknown>;
  /** Herald's id of this target: a stable idempotency token for networks that accept one. */
  targetId: string;
}

/**
 * Steps already taken for this target (in this or an earlier attempt, possibly by a process that died),
 * and the way to record a new one. record() returns once the step is durable.
 */
export interface Journal {
  readonly steps: Readonly<Record<string, string>>;
  record(step: string, value: string): Promise<void>;
}

export type PublishOutcome =
  | {
      state: 'published';
      postId: string;
      permalink: string | null;
      /** Something the user should know about how the network published it (e.g. made private against the request). */
      notice?: string | undefined;
      /**
       * The id is a stand-in until the network gives the post its final id (TikTok's public id comes after moderation,
       * sometimes hours later): Herald asks again later through `reconcile` and replaces the id and permalink.
       */
      provisional?: boolean | undefined;
    }
  /** Accepted, still processing at the network (container, upload, video): poll with checkStatus. */
  | { state: 'processing'; handle: string };

export interface Publisher {
  publish(tokens: TokenSet, req: PublishRequest, journal: Journal): Promise<PublishOutcome>;
  /** For asynchronous networks: where a processing post stands now. */
  checkStatus?(tokens: TokenSet, handle: string, req: PublishRequest, journal: Journal): Promise<PublishOutcome>;
  /**
   * After a crash between "the network accepted the post" and "Herald recorded it": asks the network
   * whether the post exists (by journaled ids, or by listing the author's recent posts), so it is not
   * created twice. Null when the network has no trace of it.
   */
  reconcile?(
    tokens: TokenSet,
    req: PublishRequest,
    journal: Journal,
  ): Promise<{ postId: string; permalink: string | null } | null>;
}
