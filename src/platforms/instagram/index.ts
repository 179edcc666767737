// Instagram professional accounts through the Instagram API with Instagram Login (no Facebook Page needed).
// Accounts linked to a Facebook Page are also listed by the Facebook adapter as `business_account` destinations.
import type { AdapterFactory } from '../types.ts';
import { instagramAccount } from './account.ts';
import { instagramAuth } from './auth.ts';
import { instagramPublisher } from './publish.ts';

export { INSTAGRAM_GRAPH_VERSION, INSTAGRAM_SCOPES } from './config.ts';

export const instagramAdapter: AdapterFactory = (deps) => ({
  platform: 'instagram',
  displayName: 'Instagram',
  capabilities: {
    // No text-only posts: every Instagram post carries media.
    postTypes: ['image', 'carousel', 'video'],
    text: { max: 2200, unit: 'utf16' },
    // Media containers are processed (IN_PROGRESS → FINISHED) before they can be published.
    asyncProcessing: true,
  },
  auth: instagramAuth(deps),
  configured: Boolean(deps.config.clientId && deps.config.clientSecret),
  fetchAccount: instagramAccount(deps),
  publisher: instagramPublisher(deps),
});
