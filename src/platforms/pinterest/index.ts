// Pinterest adapter: OAuth 2.0 for connecting, API v5 for the account and its boards. Video pins wait for the
// uploaded media to finish processing, hence asynchronous processing.
export { network, PINTEREST_CAPABILITIES, pinterestAdapter } from './network.ts';
export { PINTEREST_SCOPES } from './auth.ts';
export { PINTEREST_HOSTS } from './context.ts';
export { PINTEREST_STEPS } from './publish.ts';
