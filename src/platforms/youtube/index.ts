// YouTube adapter: Google OAuth 2.0 for connecting, the YouTube Data API v3 for the channel and uploads. Uploads are
// processed after the last byte arrives; the video exists (and counts as published) from then on, see publish.ts.
import type { AdapterFactory, Capabilities } from '../types.ts';
import { fetchYouTubeAccount } from './account.ts';
import { youtubeAuth } from './auth.ts';
import { youtubeContext } from './context.ts';
import { youtubePublisher } from './publish.ts';

export { YOUTUBE_SCOPES } from './auth.ts';
export { YOUTUBE_HOSTS } from './context.ts';
export { YOUTUBE_STEPS } from './publish.ts';

export const YOUTUBE_CAPABILITIES: Capabilities = {
  postTypes: ['video'],
  // The video title. Herald takes 100 (YouTube's own limit) over the 200 one parameter reference gives; counting
  // UTF-16 units never lets through a title YouTube would count as longer.
  text: { max: 100, unit: 'utf16' },
  asyncProcessing: true,
};

export const youtubeAdapter: AdapterFactory = (deps) => {
  const ctx = youtubeContext(deps);
  return {
    platform: 'youtube',
    displayName: 'YouTube',
    capabilities: YOUTUBE_CAPABILITIES,
    auth: youtubeAuth(ctx),
    configured: ctx.configured,
    fetchAccount: (tokens) => fetchYouTubeAccount(ctx, tokens),
    publisher: youtubePublisher(ctx),
  };
};
