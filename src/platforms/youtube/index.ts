// YouTube adapter: Google OAuth 2.0 for connecting, the YouTube Data API v3 for the channel and uploads. Uploads are
// processed after the last byte arrives; the video exists (and counts as published) from then on, see publish.ts.
export { network, YOUTUBE_CAPABILITIES, youtubeAdapter } from './network.ts';
export { YOUTUBE_SCOPES } from './auth.ts';
export { YOUTUBE_HOSTS } from './context.ts';
export { YOUTUBE_STEPS } from './publish.ts';
