// TikTok adapter: Login Kit v2 for connecting, the v2 API for the account. Publishing (Content Posting API) is
// asynchronous: a publish is only done once status/fetch says so.
export { network, TIKTOK_CAPABILITIES, TIKTOK_PRIVACY, tiktokAdapter } from './network.ts';
export { TIKTOK_SCOPES } from './auth.ts';
export { TIKTOK_HOSTS } from './context.ts';
export { TIKTOK_STEPS } from './publish.ts';
