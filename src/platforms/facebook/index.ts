// Facebook Pages through the Graph API: Facebook Login, long-lived user token, Page tokens in TokenSet.extra.
import type { AdapterFactory } from '../types.ts';
import { facebookAccount } from './account.ts';
import { facebookAuth } from './auth.ts';
import { facebookPublisher } from './publish.ts';

export { FACEBOOK_GRAPH_VERSION, FACEBOOK_SCOPES, pageTokenKey } from './config.ts';

export const facebookAdapter: AdapterFactory = (deps) => ({
  platform: 'facebook',
  displayName: 'Facebook',
  capabilities: {
    postTypes: ['text', 'image', 'carousel', 'video'],
    // 63,206 is the universally cited post limit; Graph measures JavaScript string length.
    text: { max: 63_206, unit: 'utf16' },
    // Videos and reels are processed after upload and must be polled.
    asyncProcessing: true,
  },
  auth: facebookAuth(deps),
  configured: Boolean(deps.config.clientId && deps.config.clientSecret),
  fetchAccount: facebookAccount(deps),
  publisher: facebookPublisher(deps),
});
