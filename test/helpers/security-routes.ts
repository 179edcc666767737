// The security matrix, one entry per route of the built app (`METHOD /path/:param`), run by
// test/foundation/security-matrix.test.ts, whose catalog test fails when a route has no entry here or an entry's
// kind, plan feature or platform check disagrees with the route's declared `config.access`.
import type { Feature } from '../../src/auth/plans.ts';
import type { AccountRouteUnderTest, McpRouteUnderTest, RouteUnderTest } from './security-matrix.ts';
import type { Harness, TestUser } from './harness.ts';
import { asUser } from './harness.ts';
import type { AppContext } from '../../src/app-context.ts';
import { toolsFor } from '../../src/tools/index.ts';

export type MatrixEntry =
  | ({ matrix: 'workspace' } & Omit<RouteUnderTest, 'method'>)
  | ({ matrix: 'account' } & Omit<AccountRouteUnderTest, 'method'>)
  | ({ matrix: 'admin' } & Omit<AccountRouteUnderTest, 'method'>)
  /** An MCP endpoint (access kind 'mcp'): its own credential forms, auth and plan errors in-band. */
  | ({ matrix: 'mcp' } & McpRouteUnderTest)
  /** No credential by design; `why` says what protects it instead. */
  | { matrix: 'public'; why: string };

const NO_ID = '00000000-0000-4000-8000-000000000000';
const ws = (u: TestUser) => `/workspaces/${u.workspaceId}`;

/** A Threads text draft in the owner's workspace: draft routes check the key scope against the draft's platform. */
async function threadsDraft(h: Harness, owner: TestUser): Promise<string> {
  const res = await h.req({
    method: 'POST',
    url: '/unified/drafts',
    headers: asUser(owner),
    payload: { post_type: 'text', platforms: ['threads'], default_text: 'A draft' },
  });
  if (res.statusCode !== 200) throw new Error(`draft creation failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { drafts: { draft_id: string }[] }).drafts[0]!.draft_id;
}

const posting = (
  type: string,
  payload: Record<string, unknown>,
  platform: string,
  feature: Feature = 'publish_enabled',
): MatrixEntry => ({
  matrix: 'workspace',
  url: `/unified/post/${type}`,
  payload: { platforms: [platform], ...payload },
  platform,
  feature,
});

const draftRoute = (suffix: string, feature: Feature | null = 'drafts_enabled', payload?: unknown): MatrixEntry => ({
  matrix: 'workspace',
  url: (_u, id) => `/unified/drafts/${id}${suffix}`,
  prepare: threadsDraft,
  platform: 'threads',
  ...(feature ? { feature } : {}),
  ...(payload !== undefined ? { payload } : {}),
});

const scheduled = (suffix: string, payload?: unknown): MatrixEntry => ({
  matrix: 'workspace',
  url: `/unified/scheduled-posts/${NO_ID}${suffix}`,
  feature: 'scheduling_enabled',
  ...(payload !== undefined ? { payload } : {}),
});

const webhookRoute = (suffix: string, payload?: unknown): MatrixEntry => ({
  matrix: 'workspace',
  url: `/webhooks/${NO_ID}${suffix}`,
  feature: 'webhooks_enabled',
  ...(payload !== undefined ? { payload } : {}),
});

const feedRoute = (suffix: string, payload?: unknown, platform?: string): MatrixEntry => ({
  matrix: 'workspace',
  url: `/unified/feeds/${NO_ID}${suffix}`,
  feature: 'scheduling_enabled',
  ...(payload !== undefined ? { payload } : {}),
  ...(platform ? { platform } : {}),
});

const publicRoute = (why: string): MatrixEntry => ({ matrix: 'public', why });
const callback = publicRoute(
  'an OAuth redirect from the network: bound to the state Herald issued, not to a credential',
);
const KEYS_OWNERS = 'Only workspace owners can manage API keys.';
const MCP_405 = '405 for everyone: a stateless MCP server has no event stream to open and no session to end';
const OAUTH_DISCOVERY = 'OAuth discovery metadata (RFC 8414 / RFC 9728): the same for everyone';
const OAUTH_AUTHORIZE =
  'the start of an OAuth authorization: registered redirect URIs only, exact match; nothing is granted before the user signs in';
const OAUTH_CORS = 'a CORS preflight of a public OAuth endpoint (browser-based MCP clients): answers headers only';
const OAUTH_PAGES =
  'the OAuth sign-in forms: the password itself, the per-account sign-in throttle, the auth budget, CSRF tokens and frame-ancestors none';
const SIGN_IN = 'signing in and account recovery: the per-address auth budget and single-use tokens protect it';

const aiRoute = (path: string, payload: Record<string, unknown>, platform: string): MatrixEntry => ({
  matrix: 'workspace',
  url: (u) => `${path}?workspace_id=${u.workspaceId}`,
  payload,
  platform,
  feature: 'ai_composer_enabled',
});

/** GPT Actions: every action of the GPT surface, and the catch-all for unknown names; a plan without gpt_app_enabled is 402. */
const gptAction: MatrixEntry = {
  matrix: 'workspace',
  url: '',
  payload: {},
  feature: 'gpt_app_enabled',
  planStatus: 402,
};
const GPT_ACTIONS: Record<string, MatrixEntry> = Object.fromEntries([
  ...toolsFor('gpt', {} as AppContext).map((t) => [
    `POST /unified/gpt-actions/${t.name}`,
    { ...gptAction, url: `/unified/gpt-actions/${t.name}` },
  ]),
  ['POST /unified/gpt-actions/:tool', { ...gptAction, url: '/unified/gpt-actions/no_such_action' }],
]);

export const SECURITY_ROUTES: Record<string, MatrixEntry> = {
  ...GPT_ACTIONS,
  'GET /openapi/chatgpt-actions.json': publicRoute(
    'the GPT Actions description, the same for everyone (ChatGPT imports it before any sign-in)',
  ),
  // AI generation (the workspace also named in the query)
  'POST /unified/content/generate': aiRoute(
    '/unified/content/generate',
    { idea: 'x', platforms: ['threads'] },
    'threads',
  ),
  'POST /unified/content/generate/stream': aiRoute(
    '/unified/content/generate/stream',
    { idea: 'x', platforms: ['threads'] },
    'threads',
  ),
  'POST /unified/image/generate': aiRoute(
    '/unified/image/generate',
    { content: 'x', platforms: ['pinterest'] },
    'pinterest',
  ),
  'POST /unified/image-to-content/generate': aiRoute(
    '/unified/image-to-content/generate',
    { image_url: 'https://example.com/a.png', platform: 'instagram' },
    'instagram',
  ),
  'POST /unified/video-to-content/generate': aiRoute(
    '/unified/video-to-content/generate',
    { video_url: 'https://example.com/a.mp4', platform: 'youtube' },
    'youtube',
  ),
  // Posting
  'POST /unified/post/text': posting('text', { default_text: 'x' }, 'threads'),
  'POST /unified/post/image': posting('image', { default_image_url: 'https://example.com/a.jpg' }, 'pinterest'),
  'POST /unified/post/carousel': posting(
    'carousel',
    { image_ids: [NO_ID, '00000000-0000-4000-8000-000000000001'] },
    'instagram',
  ),
  'POST /unified/post/video': posting('video', { video_url: 'https://example.com/a.mp4' }, 'youtube'),
  // Drafts
  'POST /unified/drafts': {
    matrix: 'workspace',
    url: '/unified/drafts',
    payload: { post_type: 'text', platforms: ['facebook'], default_text: 'x' },
    platform: 'facebook',
    feature: 'drafts_enabled',
  },
  'GET /unified/drafts': { matrix: 'workspace', url: '/unified/drafts', feature: 'drafts_enabled' },
  'GET /unified/drafts/:id': draftRoute(''),
  'PATCH /unified/drafts/:id': draftRoute('', 'drafts_enabled', { default_text: 'Edited' }),
  'DELETE /unified/drafts/:id': draftRoute(''),
  'POST /unified/drafts/:id/publish': draftRoute('/publish'),
  // No plan feature: a held post stays approvable after a downgrade (publishing still checks publish_enabled).
  'POST /unified/drafts/:id/approve': draftRoute('/approve', null),
  'POST /unified/drafts/:id/reject': draftRoute('/reject', null, { reason: 'Not this week' }),
  'POST /unified/drafts/:id/schedule': draftRoute('/schedule', 'scheduling_enabled', {
    scheduled_time: '2027-01-01T00:00:00Z',
  }),
  // The events outbox: any member or key of the workspace (a network-scoped key sees its networks' events).
  'GET /events': { matrix: 'workspace', url: '/events' },
  // A post's story and its retry (Herald's post id or a scheduled post's id; the targets' networks checked inside).
  'GET /unified/posts/:post_id/timeline': { matrix: 'workspace', url: `/unified/posts/${NO_ID}/timeline` },
  'POST /unified/posts/:post_id/retry': {
    matrix: 'workspace',
    url: `/unified/posts/${NO_ID}/retry`,
    feature: 'publish_enabled',
  },
  // A member's notification preferences (a key has no person: 403 inside), and the digests' signed unsubscribe link.
  'GET /notifications/preferences': { matrix: 'workspace', url: '/notifications/preferences' },
  'PUT /notifications/preferences': {
    matrix: 'workspace',
    url: '/notifications/preferences',
    payload: { preferences: { 'post.published': true } },
  },
  'GET /notifications/unsubscribe': publicRoute(
    'the unsubscribe link of a notification mail: an HMAC-signed token turning one event type off for one member',
  ),
  // Scheduled posts
  'POST /unified/scheduled-posts': {
    matrix: 'workspace',
    url: '/unified/scheduled-posts',
    payload: { post_type: 'text', platforms: ['threads'], default_text: 'x', scheduled_time: '2027-01-01T00:00:00Z' },
    platform: 'threads',
    feature: 'scheduling_enabled',
  },
  'GET /unified/scheduled-posts': {
    matrix: 'workspace',
    url: '/unified/scheduled-posts',
    feature: 'scheduling_enabled',
  },
  // Bulk import and export
  'POST /unified/bulk/validate': {
    matrix: 'workspace',
    url: '/unified/bulk/validate',
    payload: 'text,networks,time\r\nHello,threads,2027-01-01T00:00:00Z\r\n',
    feature: 'bulk_scheduling_enabled',
  },
  'POST /unified/bulk/import': {
    matrix: 'workspace',
    url: '/unified/bulk/import',
    payload: 'text,networks,time\r\nHello,threads,2027-01-01T00:00:00Z\r\n',
    feature: 'bulk_scheduling_enabled',
  },
  'GET /unified/bulk/export': { matrix: 'workspace', url: '/unified/bulk/export', feature: 'bulk_scheduling_enabled' },
  'PATCH /unified/scheduled-posts/:id': scheduled('', { scheduled_time: '2027-01-01T00:00:00Z' }),
  'DELETE /unified/scheduled-posts/:id': scheduled(''),
  'POST /unified/scheduled-posts/:id/publish-now': scheduled('/publish-now'),
  'POST /unified/scheduled-posts/:id/move-to-draft': scheduled('/move-to-draft'),
  // Posting queues
  'GET /unified/queues': { matrix: 'workspace', url: '/unified/queues', feature: 'scheduling_enabled' },
  'POST /unified/queues': {
    matrix: 'workspace',
    url: '/unified/queues',
    payload: { name: 'matrix' },
    feature: 'scheduling_enabled',
  },
  'GET /unified/queues/:queue': { matrix: 'workspace', url: '/unified/queues/default', feature: 'scheduling_enabled' },
  'PATCH /unified/queues/:queue': {
    matrix: 'workspace',
    url: '/unified/queues/default',
    payload: { paused: false },
    feature: 'scheduling_enabled',
  },
  'DELETE /unified/queues/:queue': {
    matrix: 'workspace',
    url: '/unified/queues/no-such-queue',
    feature: 'scheduling_enabled',
  },
  'POST /unified/queue/:queue/posts': {
    matrix: 'workspace',
    url: '/unified/queue/default/posts',
    payload: { post_type: 'text', platforms: ['threads'], default_text: 'x' },
    platform: 'threads',
    feature: 'scheduling_enabled',
  },
  'GET /unified/queue/:queue/next-slots': {
    matrix: 'workspace',
    url: '/unified/queue/default/next-slots',
    feature: 'scheduling_enabled',
  },
  // Connections and profiles
  'POST /unified/oauth/url': {
    matrix: 'workspace',
    url: '/unified/oauth/url',
    payload: { platform: ['facebook'] },
    platform: 'facebook',
  },
  'GET /unified/oauth/token': { matrix: 'workspace', url: '/unified/oauth/token?platform=tiktok', platform: 'tiktok' },
  'DELETE /unified/oauth/token': {
    matrix: 'workspace',
    url: '/unified/oauth/token?platform=youtube',
    platform: 'youtube',
  },
  'GET /unified/user-profiles': {
    matrix: 'workspace',
    url: '/unified/user-profiles/?platforms=pinterest',
    platform: 'pinterest',
  },
  // Engagement: posts read model, comments inbox, analytics
  // The workspace agent's chat history: any member or key of the workspace, no plan feature.
  'GET /user-agent-chats': { matrix: 'workspace', url: '/user-agent-chats?channel=website' },
  'DELETE /user-agent-chats': { matrix: 'workspace', url: '/user-agent-chats' },
  // The agent's chat: any member or key of the workspace, no plan feature (credits only; each tool checks its own).
  'POST /workspace-agent/website/chat': {
    matrix: 'workspace',
    url: '/workspace-agent/website/chat',
    payload: { text: 'help' },
  },
  'POST /workspace-agent/website/chat/stream': {
    matrix: 'workspace',
    url: '/workspace-agent/website/chat/stream',
    payload: { text: 'help' },
  },
  // Voice messages: any member or key of the workspace, no plan feature, no credits (docs/agent.md#transcription).
  'POST /workspace-agent/website/transcribe': {
    matrix: 'workspace',
    url: '/workspace-agent/website/transcribe',
    payload: {},
  },
  'GET /unified/posts': { matrix: 'workspace', url: '/unified/posts/?platforms=bluesky', platform: 'bluesky' },
  'GET /unified/posts/:post_id': {
    matrix: 'workspace',
    url: '/unified/posts/at%3A%2F%2Fdid%3Aplc%3Ax%2Fapp.bsky.feed.post%2F1?platform=bluesky',
    platform: 'bluesky',
  },
  'GET /unified/posts/:post_id/metrics': {
    matrix: 'workspace',
    url: '/unified/posts/123/metrics?platform=linkedin',
    platform: 'linkedin',
  },
  'DELETE /unified/posts/:post_id': {
    matrix: 'workspace',
    url: '/unified/posts/123_456?platform=facebook',
    platform: 'facebook',
    feature: 'publish_enabled',
  },
  'GET /unified/comments': {
    matrix: 'workspace',
    url: '/unified/comments/?platforms=threads',
    platform: 'threads',
    feature: 'inbox_enabled',
  },
  'GET /unified/comments/by-post': {
    matrix: 'workspace',
    url: '/unified/comments/by-post?platform=instagram&post_id=1',
    platform: 'instagram',
    feature: 'inbox_enabled',
  },
  'GET /unified/comments/replies': {
    matrix: 'workspace',
    url: '/unified/comments/replies?platform=youtube&comment_id=Ug1',
    platform: 'youtube',
    feature: 'inbox_enabled',
  },
  'GET /unified/comments/read': { matrix: 'workspace', url: '/unified/comments/read', feature: 'inbox_enabled' },
  'POST /unified/comments/read': {
    matrix: 'workspace',
    url: '/unified/comments/read',
    payload: { comments: [{ platform: 'threads', comment_id: '17900000000000001' }] },
    platform: 'threads',
    feature: 'inbox_enabled',
  },
  'POST /unified/comments/reply': {
    matrix: 'workspace',
    url: '/unified/comments/reply?platform=linkedin&comment_id=urn%3Ali%3Acomment%3A(urn%3Ali%3Aactivity%3A1%2C2)',
    payload: { text: 'Thanks' },
    platform: 'linkedin',
    feature: 'inbox_enabled',
  },
  'GET /unified/analytics': {
    matrix: 'workspace',
    url: '/unified/analytics/?platforms=pinterest',
    platform: 'pinterest',
    feature: 'analytics_enabled',
  },
  // Media
  'POST /media/upload': {
    matrix: 'workspace',
    url: '/media/upload',
    // JSON upload (URL import): the platform is known before anything is fetched.
    payload: { media_type: 'image', media_url: 'https://example.com/a.png', platform: 'instagram' },
    platform: 'instagram',
  },
  'POST /media/storage/init': {
    matrix: 'workspace',
    url: '/media/storage/init',
    payload: { filename: 'a.mp4', file_size: 10, total_chunks: 1, platform: 'tiktok' },
    platform: 'tiktok',
  },
  'POST /media/storage/chunk': { matrix: 'workspace', url: '/media/storage/chunk', payload: { upload_id: NO_ID } },
  'GET /media/storage/progress': { matrix: 'workspace', url: `/media/storage/progress?upload_id=${NO_ID}` },
  'POST /media/storage/complete': {
    matrix: 'workspace',
    url: '/media/storage/complete',
    payload: { upload_id: NO_ID, platform: 'tiktok' },
    platform: 'tiktok',
  },
  'GET /media': { matrix: 'workspace', url: '/media?platform=instagram', platform: 'instagram' },
  'GET /media/:id': { matrix: 'workspace', url: `/media/${NO_ID}` },
  'DELETE /media/:id': { matrix: 'workspace', url: `/media/${NO_ID}` },
  'DELETE /media/bulk': { matrix: 'workspace', url: '/media/bulk', payload: { media_ids: [NO_ID] } },
  'DELETE /media/filter': { matrix: 'workspace', url: '/media/filter?platform=tiktok', platform: 'tiktok' },
  'GET /billing/usage': { matrix: 'workspace', url: '/billing/usage' },
  // Feeds: any member or key of the workspace on a plan with scheduling_enabled; the networks a body names are checked
  // against the key's scope (a scoped key sees only the feeds posting to its networks).
  'POST /unified/feeds': {
    matrix: 'workspace',
    url: '/unified/feeds',
    payload: { url: 'https://example.com/feed.xml', networks: ['threads'] },
    platform: 'threads',
    feature: 'scheduling_enabled',
  },
  'GET /unified/feeds': { matrix: 'workspace', url: '/unified/feeds', feature: 'scheduling_enabled' },
  'GET /unified/feeds/:id': feedRoute(''),
  'PATCH /unified/feeds/:id': feedRoute('', { networks: ['threads'] }, 'threads'),
  'DELETE /unified/feeds/:id': feedRoute(''),
  'POST /unified/feeds/:id/poll': feedRoute('/poll'),
  // Webhooks: any member or key of the workspace on a plan with webhooks_enabled (a scoped key: its networks' endpoints).
  'POST /webhooks': {
    matrix: 'workspace',
    url: '/webhooks',
    payload: { url: 'https://example.com/hook' },
    feature: 'webhooks_enabled',
  },
  'GET /webhooks': { matrix: 'workspace', url: '/webhooks', feature: 'webhooks_enabled' },
  'GET /webhooks/:id': webhookRoute(''),
  'PATCH /webhooks/:id': webhookRoute('', { description: 'x' }),
  'DELETE /webhooks/:id': webhookRoute(''),
  'POST /webhooks/:id/rotate-secret': webhookRoute('/rotate-secret'),
  'POST /webhooks/:id/test': webhookRoute('/test'),
  'GET /webhooks/:id/deliveries': webhookRoute('/deliveries'),
  'POST /webhooks/:id/recover': webhookRoute('/recover', { since: '2026-01-01T00:00:00Z' }),
  'POST /webhooks/deliveries/:id/redeliver': {
    matrix: 'workspace',
    url: '/webhooks/deliveries/msg_none/redeliver',
    feature: 'webhooks_enabled',
  },
  // MCP (stateless: POST only; GET and DELETE answer 405 before anything else)
  'POST /mcp': { matrix: 'mcp', url: '/mcp', endpoint: 'cli' },
  'POST /web/mcp': { matrix: 'mcp', url: '/web/mcp', endpoint: 'web' },
  'GET /mcp': publicRoute(MCP_405),
  'DELETE /mcp': publicRoute(MCP_405),
  'GET /web/mcp': publicRoute(MCP_405),
  'DELETE /web/mcp': publicRoute(MCP_405),
  // The account and its workspaces (user sessions only)
  'GET /auth/me': { matrix: 'account', url: () => '/auth/me', noWorkspace: true },
  'POST /auth/logout': { matrix: 'account', url: () => '/auth/logout', noWorkspace: true },
  'POST /auth/logout-all': { matrix: 'account', url: () => '/auth/logout-all', noWorkspace: true },
  'POST /auth/change-password': {
    matrix: 'account',
    url: () => '/auth/change-password',
    payload: { current_password: 'x', new_password: 'long enough' },
    noWorkspace: true,
  },
  'POST /invitations/accept': {
    matrix: 'account',
    url: () => '/invitations/accept',
    payload: { token: 'x' },
    noWorkspace: true,
  },
  'GET /workspaces': { matrix: 'account', url: () => '/workspaces', noWorkspace: true },
  'POST /workspaces': { matrix: 'account', url: () => '/workspaces', payload: { name: 'Another' }, noWorkspace: true },
  'PATCH /workspaces/:workspace_id': { matrix: 'account', url: ws, payload: { name: 'x' }, ownerOnly: true },
  'DELETE /workspaces/:workspace_id': { matrix: 'account', url: ws, ownerOnly: true },
  'GET /workspaces/:workspace_id/members': { matrix: 'account', url: (u) => `${ws(u)}/members` },
  'POST /workspaces/:workspace_id/members': {
    matrix: 'account',
    url: (u) => `${ws(u)}/members`,
    payload: { email: 'someone@example.test' },
    ownerOnly: true,
  },
  'PATCH /workspaces/:workspace_id/members/:user_id': {
    matrix: 'account',
    url: (u) => `${ws(u)}/members/${u.userId}`,
    payload: { role: 'owner' },
    ownerOnly: true,
  },
  'DELETE /workspaces/:workspace_id/members/:user_id': {
    matrix: 'account',
    url: (u) => `${ws(u)}/members/${u.userId}`,
    ownerOnly: true,
  },
  'POST /workspaces/:workspace_id/invitations': {
    matrix: 'account',
    url: (u) => `${ws(u)}/invitations`,
    payload: { email: 'someone@example.test' },
    ownerOnly: true,
  },
  'GET /workspaces/:workspace_id/invitations': {
    matrix: 'account',
    url: (u) => `${ws(u)}/invitations`,
    ownerOnly: true,
  },
  'DELETE /workspaces/:workspace_id/invitations/:invitation_id': {
    matrix: 'account',
    url: (u) => `${ws(u)}/invitations/${NO_ID}`,
    ownerOnly: true,
  },
  'POST /workspaces/:workspace_id/api-keys': {
    matrix: 'account',
    url: (u) => `${ws(u)}/api-keys`,
    payload: { name: 'k', scope: 'full' },
    ownerOnly: KEYS_OWNERS,
  },
  'GET /workspaces/:workspace_id/api-keys': { matrix: 'account', url: (u) => `${ws(u)}/api-keys` },
  'DELETE /workspaces/:workspace_id/api-keys/:key_id': {
    matrix: 'account',
    url: (u) => `${ws(u)}/api-keys/${NO_ID}`,
    ownerOnly: KEYS_OWNERS,
  },
  // Operators
  'GET /admin/mail/outbox': { matrix: 'admin', url: () => '/admin/mail/outbox' },
  'POST /admin/users': {
    matrix: 'admin',
    url: () => '/admin/users',
    payload: { email: 'new@example.test', password: 'long enough password' },
  },
  'POST /admin/workspaces/:workspace_id/api-keys': {
    matrix: 'admin',
    url: (u) => `/admin${ws(u)}/api-keys`,
    payload: { name: 'k', scope: 'full' },
  },
  'PUT /admin/workspaces/:workspace_id/plan': {
    matrix: 'admin',
    url: (u) => `/admin${ws(u)}/plan`,
    payload: { plan: 'free' },
  },
  // Public by design
  'POST /auth/signup': publicRoute(
    'creating an account; closed unless the operator opens sign-up, and on the auth budget',
  ),
  'POST /auth/login': publicRoute(SIGN_IN),
  'POST /auth/forgot-password': publicRoute(SIGN_IN),
  'POST /auth/reset-password': publicRoute(SIGN_IN),
  'GET /auth/verify-reset-token': publicRoute(SIGN_IN),
  'GET /auth/csrf': publicRoute(
    "a CSRF token for the web app: worthless without the secret cookie it is made from, which only this site's pages send",
  ),
  'GET /unified/platforms': publicRoute(
    "the networks' composer rules and whether sandbox mode is on: the same for everyone, nothing per workspace",
  ),
  'GET /billing/plans': publicRoute('the plan catalogue: the same for everyone, nothing per workspace'),
  'GET /healthz': publicRoute('liveness for load balancers; reveals nothing'),
  'GET /readyz': publicRoute('readiness for load balancers; reveals nothing'),
  'GET /metrics': publicRoute('Prometheus: its own bearer token (HERALD_METRICS_TOKEN) or its own port'),
  'GET /openapi.json': publicRoute('the API description'),
  'GET /': publicRoute("the web app's page (or why it is not built): the same static file for everyone"),
  'GET /assets/*': publicRoute("the web app's built scripts and styles: the same static files for everyone"),
  'GET /docs': publicRoute('the API explorer page'),
  'GET /docs/json': publicRoute('the API description'),
  'GET /docs/yaml': publicRoute('the API description'),
  'GET /docs/static/*': publicRoute('the API explorer page'),
  'GET /docs/static/index.html': publicRoute('the API explorer page'),
  'GET /docs/static/swagger-initializer.js': publicRoute('the API explorer page'),
  'GET /storage/*': publicRoute('stored media at unguessable public URLs, which the networks fetch'),
  // The OAuth authorization server for chat connectors (src/oauth/, docs/mcp.md)
  'GET /.well-known/oauth-protected-resource': publicRoute(OAUTH_DISCOVERY),
  'GET /.well-known/oauth-protected-resource/web/mcp': publicRoute(OAUTH_DISCOVERY),
  'GET /.well-known/oauth-authorization-server': publicRoute(OAUTH_DISCOVERY),
  'GET /.well-known/openid-configuration': publicRoute(OAUTH_DISCOVERY),
  'GET /auth/oauth/jwks': publicRoute('the public key of ID tokens: public by definition'),
  'OPTIONS /.well-known/oauth-protected-resource': publicRoute(OAUTH_CORS),
  'OPTIONS /.well-known/oauth-protected-resource/web/mcp': publicRoute(OAUTH_CORS),
  'OPTIONS /.well-known/oauth-authorization-server': publicRoute(OAUTH_CORS),
  'OPTIONS /.well-known/openid-configuration': publicRoute(OAUTH_CORS),
  'OPTIONS /auth/oauth/jwks': publicRoute(OAUTH_CORS),
  'OPTIONS /auth/oauth/token': publicRoute(OAUTH_CORS),
  'OPTIONS /auth/oauth/revoke': publicRoute(OAUTH_CORS),
  'OPTIONS /auth/oauth/register': publicRoute(OAUTH_CORS),
  'GET /auth/oauth/register/:clientId': publicRoute(
    'RFC 7592: reads a registration only with the registration access token it was given',
  ),
  'GET /auth/oauth/authorize': publicRoute(OAUTH_AUTHORIZE),
  'POST /auth/oauth/authorize': publicRoute(OAUTH_AUTHORIZE),
  'GET /auth/oauth/authorize/:uid': publicRoute(
    'resuming an authorization: bound to the uid and the browser cookie the provider set when it started',
  ),
  'POST /auth/oauth/token': publicRoute(
    'the token endpoint: a single-use code with its PKCE verifier, a refresh token, and the client secret for confidential clients',
  ),
  'POST /auth/oauth/revoke': publicRoute(
    'RFC 7009 revocation: needs the token itself (and the client secret for confidential clients)',
  ),
  'POST /auth/oauth/register': publicRoute(
    'dynamic client registration (RFC 7591): a client can only ever receive codes at its own registered redirect URIs (https, or http on loopback); on the auth budget, capped per address and in clients not yet used; HERALD_OAUTH_REGISTRATION=closed turns it off',
  ),
  'GET /auth/oauth/login': publicRoute(OAUTH_PAGES),
  'POST /auth/oauth/login': publicRoute(OAUTH_PAGES),
  'GET /auth/oauth/select-workspace': publicRoute(OAUTH_PAGES),
  'POST /auth/oauth/select-workspace': publicRoute(OAUTH_PAGES),
  'GET /linkedin/oauth/callback': callback,
  'GET /facebook/oauth/callback': callback,
  'GET /instagram/oauth/callback': callback,
  'GET /threads/oauth/callback': callback,
  'GET /tiktok/oauth/callback': callback,
  'GET /youtube/oauth/callback': callback,
  'GET /pinterest/oauth/callback': callback,
};
