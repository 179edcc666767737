// What the adapter contract suite needs to know about each network that its adapter does not say itself: how to
// connect on the sandbox and where a post goes (page, board, organization) or which options it must carry.
import pino from 'pino';
import { blueskyAdapter } from '../../../src/platforms/bluesky/index.ts';
import { facebookAdapter } from '../../../src/platforms/facebook/index.ts';
import { instagramAdapter } from '../../../src/platforms/instagram/index.ts';
import { linkedinAdapter } from '../../../src/platforms/linkedin/index.ts';
import { pinterestAdapter } from '../../../src/platforms/pinterest/index.ts';
import type { PostType, PublishRequest } from '../../../src/platforms/publishing.ts';
import { threadsAdapter } from '../../../src/platforms/threads/index.ts';
import { tiktokAdapter } from '../../../src/platforms/tiktok/index.ts';
import type { AccountIdentity, AdapterFactory, PlatformAdapter, TokenSet } from '../../../src/platforms/types.ts';
import { youtubeAdapter } from '../../../src/platforms/youtube/index.ts';
import { sandboxBaseUrls } from '../../../src/sandbox/index.ts';
import type { OAuthPlatform, Platform, StrictMode } from '../../../src/sandbox/index.ts';
import { configuredHttp } from '../../helpers/platform-http.ts';
import type { TestSandbox } from '../../helpers/sandbox.ts';
import { connectThrough, sandboxDeps } from '../helpers/oauth-flow.ts';

/** The sandbox's Bluesky account (src/sandbox/bluesky/account.ts). */
export const BLUESKY_LOGIN = { handle: 'alice.sandbox', appPassword: 'abcd-ef12-gh34-ij56' };

export interface ContractProfile {
  slug: Platform;
  factory: AdapterFactory;
  /**
   * Revocation ends the grant (refresh fails) but leaves a short-lived access token working until it expires, as
   * Bluesky's deleteSession does with its access JWT.
   */
  revokeKeepsAccessToken?: boolean;
  /** Its throttling answer says when to come back, which the adapter passes on as retryAfterSeconds. */
  rateLimitSaysWhen?: boolean;
  /** Refresh extends a grant only while it is still valid (Meta's long-lived tokens): an expired one needs a reconnect. */
  expiredTokenNeedsReconnect?: boolean;
  /**
   * Known gaps, as `postType:step`: when the answer to the call behind this journal step is lost, the adapter finds
   * no trace of what the network made, so recovery posts a second time. Each is a defect to fix in the adapter; the
   * suite checks the step still exists and still runs the crash right after it.
   */
  lostAnswerGaps?: readonly string[];
  /**
   * Strict sandbox modes the contract cases turn off (HERALD_SANDBOX_STRICT=all turns them on), because the sandbox
   * app declares the opposite to the adapter: e.g. TikTok's declares its media domain verified.
   */
  lenient?: readonly StrictMode[];
  /**
   * Post types whose media the network fetches from Herald's URLs itself (rather than taking uploaded bytes): under
   * strict public_media_only, media on a private address must fail them as invalid content.
   */
  pullsMedia?: readonly PostType[];
  /** The adapter pointed at the sandbox, reading its clock. */
  adapter(sb: TestSandbox): PlatformAdapter;
  /** A fresh connection, as Herald's connect flow makes it. */
  connect(sb: TestSandbox, adapter: PlatformAdapter): Promise<TokenSet>;
  /** The network-specific part of a request: destination, title, options, a video cover. */
  request(account: AccountIdentity, postType: PostType): Partial<PublishRequest>;
}

const oauth = (
  slug: OAuthPlatform,
  factory: AdapterFactory,
  request: ContractProfile['request'] = () => ({}),
  extra: Partial<ContractProfile> = {},
): ContractProfile => ({
  slug,
  factory,
  ...extra,
  adapter: (sb) => factory(sandboxDeps(sb, slug)),
  connect: (sb, adapter) => connectThrough(sb, adapter),
  request,
});

const destination = (account: AccountIdentity, kind: 'page' | 'organization' | 'board') => {
  const found = account.destinations.find((d) => d.kind === kind);
  if (!found) throw new Error(`the sandbox account has no ${kind}`);
  return { kind, id: found.id };
};

export const PROFILES: Record<Platform, ContractProfile> = {
  // LinkedIn's 429s are daily quotas: the adapter waits for their reset at 00:00 UTC.
  linkedin: oauth('linkedin', linkedinAdapter, () => ({ destination: { kind: 'personal', id: 'me' } }), {
    rateLimitSaysWhen: true,
  }),
  // A feed post, a published photo and a video by URL carry no id Herald journaled before the call, and the
  // adapter does not list the Page's recent posts to find them.
  facebook: oauth('facebook', facebookAdapter, (account) => ({ destination: destination(account, 'page') }), {
    lostAnswerGaps: ['text:post', 'image:photo:0', 'video:video'],
    pullsMedia: ['image', 'carousel', 'video'],
  }),
  instagram: oauth('instagram', instagramAdapter, () => ({}), {
    expiredTokenNeedsReconnect: true,
    pullsMedia: ['image', 'carousel', 'video'],
  }),
  threads: oauth('threads', threadsAdapter, () => ({}), {
    expiredTokenNeedsReconnect: true,
    pullsMedia: ['image', 'carousel', 'video'],
  }),
  // A photo post's init answer (its publish_id) is the only handle on it: TikTok lists no unfinished posts.
  tiktok: oauth(
    'tiktok',
    tiktokAdapter,
    (_account, postType) => ({
      options: { privacy_level: 'SELF_ONLY' },
      ...(postType === 'video' ? {} : { title: 'Photo title' }),
    }),
    // The sandbox app declares its media domain verified (HERALD_TIKTOK_MEDIA_DOMAIN_VERIFIED), which photo posts need.
    {
      lostAnswerGaps: ['image:tiktok.publish_id', 'carousel:tiktok.publish_id'],
      lenient: ['tiktok_unverified_domain'],
      pullsMedia: ['image', 'carousel'],
    },
  ),
  youtube: oauth('youtube', youtubeAdapter, () => ({ title: 'Contract video', description: 'About this video' })),
  // Pinterest fetches image pins from their URLs too, but public_media_only covers Meta and TikTok only.
  pinterest: oauth('pinterest', pinterestAdapter, (account) => ({
    title: 'Pin title',
    description: 'A description',
    destination: destination(account, 'board'),
  })),
  bluesky: {
    slug: 'bluesky',
    factory: blueskyAdapter,
    revokeKeepsAccessToken: true,
    rateLimitSaysWhen: true,
    adapter: (sb) => {
      const logger = pino({ level: 'silent' });
      const urls = sandboxBaseUrls(sb.publicUrl).bluesky;
      return blueskyAdapter({ http: configuredHttp(logger, urls), config: { urls }, clock: sb.clock, logger });
    },
    connect: async (_sb, adapter) => {
      if (adapter.auth.kind !== 'app_password') throw new Error('bluesky connects with an app password');
      return adapter.auth.login(BLUESKY_LOGIN);
    },
    request: () => ({}),
  },
};
