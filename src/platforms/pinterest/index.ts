// Pinterest adapter: OAuth 2.0 for connecting, API v5 for the account and its boards. Video pins wait for the
// uploaded media to finish processing, hence asynchronous processing.
import type { AdapterFactory, Capabilities } from '../types.ts';
import { fetchPinterestAccount } from './account.ts';
import { pinterestAuth } from './auth.ts';
import { pinterestContext } from './context.ts';
import { pinterestPublisher } from './publish.ts';

export { PINTEREST_SCOPES } from './auth.ts';
export { PINTEREST_HOSTS } from './context.ts';
export { PINTEREST_STEPS } from './publish.ts';

export const PINTEREST_CAPABILITIES: Capabilities = {
  postTypes: ['image', 'carousel', 'video'],
  // The pin title. Counting UTF-16 units never lets through a title Pinterest would count as longer.
  text: { max: 100, unit: 'utf16' },
  asyncProcessing: true,
};

export const pinterestAdapter: AdapterFactory = (deps) => {
  const ctx = pinterestContext(deps);
  return {
    platform: 'pinterest',
    displayName: 'Pinterest',
    capabilities: PINTEREST_CAPABILITIES,
    auth: pinterestAuth(ctx),
    configured: ctx.configured,
    fetchAccount: (tokens) => fetchPinterestAccount(ctx, tokens),
    publisher: pinterestPublisher(ctx),
  };
};
