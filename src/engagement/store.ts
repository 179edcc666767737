// The engagement read model in the database: posts with their latest numbers, a snapshot per refresh, and synced
// comments. Every statement is scoped by workspace; a network id alone never finds a row. The statements live by
// subject in store-posts.ts, store-comments.ts, store-ledger.ts and store-reads.ts (the inbox's read state); this class binds them to the database.
import type { Db } from '../db/client.ts';
import * as comments from './store-comments.ts';
import * as ledger from './store-ledger.ts';
import * as posts from './store-posts.ts';
import * as reads from './store-reads.ts';

export type { CommentRow, CommentView } from './store-comments.ts';
export type { PublishedPost } from './store-ledger.ts';
export type { PostRow, SnapshotRow, Sources } from './store-posts.ts';
export type { ReadRef } from './store-reads.ts';

/** A statement's arguments after the database. */
type Args<F> = F extends (db: Db, ...args: infer A) => unknown ? A : never;

export class EngagementStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  // Posts and their numbers (store-posts.ts).
  savePosts(...a: Args<typeof posts.savePosts>) {
    return posts.savePosts(this.#db, ...a);
  }
  recentPostsOf(...a: Args<typeof posts.recentPostsOf>) {
    return posts.recentPostsOf(this.#db, ...a);
  }
  post(...a: Args<typeof posts.post>) {
    return posts.post(this.#db, ...a);
  }
  markDeleted(...a: Args<typeof posts.markDeleted>) {
    return posts.markDeleted(this.#db, ...a);
  }
  snapshots(...a: Args<typeof posts.snapshots>) {
    return posts.snapshots(this.#db, ...a);
  }
  totals(...a: Args<typeof posts.totals>) {
    return posts.totals(this.#db, ...a);
  }
  setCommentsDisabled(...a: Args<typeof posts.setCommentsDisabled>) {
    return posts.setCommentsDisabled(this.#db, ...a);
  }
  postsByIds(...a: Args<typeof posts.postsByIds>) {
    return posts.postsByIds(this.#db, ...a);
  }

  // Comments and replies (store-comments.ts).
  saveComments(...a: Args<typeof comments.saveComments>) {
    return comments.saveComments(this.#db, ...a);
  }
  commentsOf(...a: Args<typeof comments.commentsOf>) {
    return comments.commentsOf(this.#db, ...a);
  }
  comment(...a: Args<typeof comments.comment>) {
    return comments.comment(this.#db, ...a);
  }
  commentCount(...a: Args<typeof comments.commentCount>) {
    return comments.commentCount(this.#db, ...a);
  }

  // What the ledger knows of the posts Herald published (store-ledger.ts).
  publishedTarget(...a: Args<typeof ledger.publishedTarget>) {
    return ledger.publishedTarget(this.#db, ...a);
  }
  ledgerPostIds(...a: Args<typeof ledger.ledgerPostIds>) {
    return ledger.ledgerPostIds(this.#db, ...a);
  }
  publishedTo(...a: Args<typeof ledger.publishedTo>) {
    return ledger.publishedTo(this.#db, ...a);
  }
  publishedAndRead(...a: Args<typeof ledger.publishedAndRead>) {
    return ledger.publishedAndRead(this.#db, ...a);
  }
  imagesOf(...a: Args<typeof ledger.imagesOf>) {
    return ledger.imagesOf(this.#db, ...a);
  }

  // The inbox's read state, per member (store-reads.ts).
  readComments(...a: Args<typeof reads.readComments>) {
    return reads.readComments(this.#db, ...a);
  }
  markRead(...a: Args<typeof reads.markRead>) {
    return reads.markRead(this.#db, ...a);
  }
}
