// The network contract: everything Herald needs to know about one network, as one object exported by
// its folder (platforms/<net>/network.ts) and listed once in registry.ts. Publishing, scheduling,
// connections and the sandbox read these; nothing outside a network's folder names the network.
import type { z } from 'zod';
import type { PostType, PublishDestination } from './publishing.ts';
import type { Platform } from './slugs.ts';
import type { AdapterFactory, Capabilities, TextLimit } from './types.ts';

/** Where in the body a value came from, e.g. ['linkedin', 'linkedin_image_url'] (for error `loc`s). */
export type FieldPath = (string | number)[];

/** A media reference as the body gave it: a Herald media id or a URL still to import, and its field. */
export type MediaRef = ({ id: string } | { url: string }) & { field?: FieldPath };

export interface PlannedTarget {
  platform: Platform;
  destination?: PublishDestination;
  text: string;
  title?: string;
  description?: string;
  media: MediaRef[];
  thumbnail?: MediaRef;
  visibility?: 'PUBLIC' | 'CONNECTIONS';
  options: Record<string, unknown>;
  draft: boolean;
  scheduledTime?: string;
  /** Text Herald posts as the first comment once the post is published (only on networks that take one). */
  firstComment?: string;
  /**
   * A requirement of this network the request does not meet (a YouTube title, a Pinterest board): the
   * target is not sent and fails alone in the results, so the request's other networks still publish.
   */
  failure?: { code: string; message: string };
}

/** The network-neutral fields of a unified post body (the overrides sit under each network's slug). */
export interface CommonBody {
  platforms: string[];
  default_text?: string | undefined;
  visibility?: 'PUBLIC' | 'CONNECTIONS' | undefined;
  scheduled_time?: string | undefined;
  draft?: boolean | undefined;
  draft_platforms?: string[] | undefined;
  first_comment?: string | undefined;
  default_image_id?: string | undefined;
  default_image_url?: string | undefined;
  image_ids?: string[] | undefined;
  video_id?: string | undefined;
  video_url?: string | undefined;
  [field: string]: unknown;
}

/** A media field of an override object: its value and where it sits in the body. */
export type OwnMedia = readonly [value: string | undefined, field: FieldPath];

/** A target as a network plans it; the platform, draft flag and scheduled time are filled in by the planner. */
export type TargetFields = Omit<PlannedTarget, 'platform' | 'draft' | 'scheduledTime'>;

/** What the planner hands a network's `plan`: the parsed request and the shared checks. */
export interface PlanKit<O> {
  postType: PostType;
  body: CommonBody;
  /** This network's override object ({} when the body has none). */
  o: Partial<O>;
  /** default_text, or '' when absent. */
  base: string;
  /** A caption: visible text on the text route, and the network's caption limit. */
  caption(text: string, field: string): void;
  /** A secondary field against its limit in the contract's `fields` (`shownAs`: the field named in the message). */
  limit(text: string | undefined, key: string, shownAs?: string): void;
  /** Refuses an image or video post without media. */
  requireMedia(media: MediaRef[]): void;
  /**
   * The post type's media: the carousel's image_ids, the video, or the first image set (own fields first, then
   * default_image_*).
   */
  media(own?: readonly OwnMedia[]): MediaRef[];
  /** A media value as a reference (URL or id), or undefined when empty. */
  ref(value: string | undefined, field: FieldPath): MediaRef | undefined;
  /** A 422 with this message (the whole request fails: limits, malformed values). */
  invalid(message: string): Error;
  /**
   * A requirement of this network that is not met: this network fails alone with `code` and `message`
   * in the results (a 422 where a request cannot answer per network: drafts, the scheduled-posts route).
   */
  fail(code: string, message: string): void;
  /**
   * Adds one target. A destination's target of an image or video post without media fails alone when another
   * destination of the network has media (its own per-page image); when none has, the request is a 422.
   */
  target(t: TargetFields): void;
}

export interface MediaRules {
  imageFormats: readonly string[];
  maxImageBytes: number;
  /** Width × height an image may have at most, for networks that limit pixels rather than bytes (LinkedIn). */
  maxImagePixels?: number;
  /** Allowed width/height range for images, when the network enforces one. */
  imageAspect?: { min: number; max: number };
  /**
   * The size an image made for this network is drawn in (the built-in provider's text cards): its feed's preferred
   * size.
   */
  preferredImage?: { width: number; height: number };
  carousel: { min: number; max: number };
  videoFormats: readonly string[];
  maxVideoBytes: number;
  videoSeconds: { min: number; max: number };
}

/** [id field, URL field]: planning reads the id first, so an id set beside a URL wins. */
export type MediaPair = readonly [idField: string, urlField: string];

/** The override's media fields, for storing a body whose URLs were imported (media-refs.ts). */
export interface MediaFields {
  pairs?: readonly MediaPair[];
  /** Fields that take an id or a URL, with no id field beside them. */
  either?: readonly string[];
  /** Maps (page id → id or URL). */
  maps?: readonly string[];
}

/** How a network takes a post's first comment (NetworkContract.firstComment). */
export interface FirstCommentRule {
  limit: TextLimit;
  form: 'comment' | 'reply';
}

/** A secondary text field's limit, with the message the interface gives when it differs from the default. */
export type FieldLimit = TextLimit & { tooLong?: (received: number) => string };

export interface NetworkContract<S extends z.ZodObject = z.ZodObject> {
  slug: Platform;
  displayName: string;
  /**
   * Other names people type for the network (the agent's direct commands): short forms ("li", "fb") and the name
   * split in words ("linked in", which also matches "linked-in"). The slug and the display name always count.
   */
  aliases?: readonly string[];
  /**
   * The network posts to the account and to destinations listed in an override field, and the publish tool's `scope`
   * argument chooses between them: `pages` = only the listed destinations (`destinations`), `feed` = the account too
   * (sets the boolean `account`).
   */
  publishScope?: { destinations: string; account: string };
  /** How an account connects: OAuth 2, or a handle and an app password. */
  authKind: 'oauth2' | 'app_password';
  /**
   * What the operator declares about the network's app (HERALD_<SLUG>_<KEY>), by key: what it means when unset.
   * `herald doctor` lists them for each configured network.
   */
  operatorSettings?: Readonly<Record<string, string>>;
  /** Post types (the routes the network is on), caption limit, asynchronous processing. */
  capabilities: Capabilities;
  media: MediaRules;
  /** Secondary text fields' limits, by field name. */
  fields?: Readonly<Record<string, FieldLimit>>;
  /** The body's `<slug>` override object (`scheduled_time` is added to it by the registry). Absent: none. */
  override?: S;
  /** Extra top-level body fields this network reads, on every route or on one post type's route. */
  topLevel?: Partial<Record<PostType | 'every', z.ZodRawShape>>;
  /** The override's media fields (top-level ones: `topMedia`). */
  mediaFields?: MediaFields;
  topMedia?: MediaFields;
  /** Summary fields a draft of this network shows beside its override object (e.g. linkedin_page_ids). */
  draftFields?(override: Record<string, unknown> | undefined, body: CommonBody): Record<string, unknown>;
  /** The profile slice also carries oauth_connection_count (how many accounts of the network are connected). */
  profileConnectionCount?: boolean;
  /**
   * Fields this network adds to its results' `post` object (optional on the wire; the response schemas declare them),
   * read from the target's journal when the result is built.
   */
  resultPost?: { shape: z.ZodRawShape; fromJournal(steps: Readonly<Record<string, string>>): Record<string, unknown> };
  /**
   * Which of the account's destinations the read routes (posts, comments, analytics) read, and how callers name them.
   */
  reads?: ReadTargets;
  /** The network's hosts by key, with the real network's base URLs (config and the sandbox override them). */
  hosts: Readonly<Record<string, string>>;
  /**
   * The first comment Herald posts under a published post (`first_comment`): its length limit, and whether the network
   * shows it as a comment under the post or as a reply in the post's thread (Threads, Bluesky). Absent: the network
   * takes none, and a request that asks for one is refused.
   */
  firstComment?: FirstCommentRule;
  /** The targets of one post for this network (one per destination), validated. */
  plan(kit: PlanKit<z.infer<S>>): void;
  adapter: AdapterFactory;
}

/**
 * Where a network's posts live besides the account itself (Facebook Pages, LinkedIn organizations, Pinterest boards,
 * YouTube channels), as the read routes' query names them (contract-gaps §4, §6).
 */
export interface ReadTargets {
  /** The destination kind the ids name. */
  kind: 'page' | 'organization' | 'board' | 'channel';
  /**
   * The repeatable query parameter of GET /unified/posts, /unified/comments and /unified/analytics (e.g.
   * facebook_page_ids).
   */
  param: string;
  /** The single-id parameter of the reply route (query or body), when replying on such a destination needs it. */
  replyParam?: string;
  /** A prefix callers may put before the id, stripped (LinkedIn's `urn:li:organization:`). */
  idPrefix?: string;
  /** Without the parameter: the account's own posts, those of every destination of the kind, or both. */
  byDefault: 'account' | 'destinations' | 'both';
  /** With the parameter, the account's own posts are left out (LinkedIn organizations exclude personal posts). */
  filterExcludesAccount?: boolean;
}

/** A destination id as a caller gave it, without the prefix the network's ids may carry (LinkedIn's URN form). */
export function readTargetId(reads: ReadTargets, id: string): string {
  return reads.idPrefix && id.startsWith(reads.idPrefix) ? id.slice(reads.idPrefix.length) : id;
}

/** Keeps the override's type for `plan` while the registry holds contracts of any override. */
export const defineNetwork = <S extends z.ZodObject>(c: NetworkContract<S>): NetworkContract<S> => c;
