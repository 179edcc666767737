// Facebook Pages through the Graph API: Facebook Login, long-lived user token, Page tokens in TokenSet.extra.
export { facebookAdapter, network } from './network.ts';
export { FACEBOOK_GRAPH_VERSION, FACEBOOK_SCOPES, pageTokenKey } from './config.ts';
