// TikTok adapter: Login Kit v2 for connecting, the v2 API for the account. Publishing (Content Posting API) is
// asynchronous: a publish is only done once status/fetch says so.
import type { AdapterFactory, Capabilities } from '../types.ts';
import { fetchTikTokAccount } from './account.ts';
import { tiktokAuth } from './auth.ts';
import { tiktokContext } from './context.ts';
import { tiktokPublisher } from './publish.ts';

export { TIKTOK_SCOPES } from './auth.ts';
export { TIKTOK_HOSTS } from './context.ts';
export { TIKTOK_STEPS } from './publish.ts';

export const TIKTOK_CAPABILITIES: Capabilities = {
  postTypes: ['image', 'carousel', 'video'],
  // The video caption; TikTok counts UTF-16 code units ("runes" in its docs).
  text: { max: 2200, unit: 'utf16' },
  asyncProcessing: true,
};

export const tiktokAdapter: AdapterFactory = (deps) => {
  const ctx = tiktokContext(deps);
  return {
    platform: 'tiktok',
    displayName: 'TikTok',
    capabilities: TIKTOK_CAPABILITIES,
    auth: tiktokAuth(ctx),
    configured: ctx.configured,
    fetchAccount: (tokens) => fetchTikTokAccount(ctx, tokens),
    publisher: tiktokPublisher(ctx),
  };
};
