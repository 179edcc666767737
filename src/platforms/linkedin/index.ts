// LinkedIn (members and the organizations they administer) through the OAuth 2 and Posts/Community Management APIs.
export { linkedinAdapter, network } from './network.ts';
export { LINKEDIN_SCOPES, LINKEDIN_VERSION } from './config.ts';
export { escapeCommentary } from './commentary.ts';
