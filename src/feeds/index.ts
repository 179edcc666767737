// Feeds a workspace follows (docs/workflow.md, Feeds): the service, its store, the fetcher and the background poll.
export { FeedFetcher, FeedFetchError } from './fetch.ts';
export { parseItems, plainText, type FeedEntry } from './parse.ts';
export { FEED_POLL_QUEUE, FeedPoller, type FeedRoundResult } from './poller.ts';
export type { FeedQueues } from './queue-mode.ts';
export { FeedService, shownUrl, type FeedInput, type FeedMode, type PollResult } from './service.ts';
export { FeedStore, type FeedItemRow, type FeedRow } from './store.ts';
export { DEFAULT_TEMPLATE, renderTemplate } from './template.ts';
