// Instagram professional accounts through the Instagram API with Instagram Login (no Facebook Page needed).
// Accounts linked to a Facebook Page are also listed by the Facebook adapter as `business_account` destinations.
export { instagramAdapter, network } from './network.ts';
export { INSTAGRAM_GRAPH_VERSION, INSTAGRAM_SCOPES } from './config.ts';
