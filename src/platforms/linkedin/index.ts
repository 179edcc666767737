// LinkedIn (members and the organizations they administer) through the OAuth 2 and Posts/Community Management APIs.
import type { AdapterFactory } from '../types.ts';
import { linkedinAccount } from './account.ts';
import { linkedinAuth } from './auth.ts';
import { linkedinPublisher } from './publish.ts';

export { LINKEDIN_SCOPES, LINKEDIN_VERSION } from './config.ts';
export { escapeCommentary } from './commentary.ts';

export const linkedinAdapter: AdapterFactory = (deps) => ({
  platform: 'linkedin',
  displayName: 'LinkedIn',
  capabilities: {
    postTypes: ['text', 'image', 'carousel', 'video'],
    // `commentary` is limited to 3,000 characters as Java counts them (UTF-16 code units).
    text: { max: 3000, unit: 'utf16' },
    // Uploaded videos (and images) are processed before a post may reference them.
    asyncProcessing: true,
  },
  auth: linkedinAuth(deps),
  configured: Boolean(deps.config.clientId && deps.config.clientSecret),
  fetchAccount: linkedinAccount(deps),
  publisher: linkedinPublisher(deps),
});
