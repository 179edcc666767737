// Bluesky (AT Protocol): app-password sessions on the account's own PDS, found through its DID document.
import { z } from 'zod';
import { defineNetwork } from '../contract.ts';
import { resolveHosts } from '../hosts.ts';
import { PLATFORM_NAMES } from '../slugs.ts';
import type { AdapterFactory, AppPasswordAuth, PlatformAdapter } from '../types.ts';
import { ALT_TEXT_MAX, BLUESKY_CAPABILITIES, BLUESKY_MEDIA, MAX_IMAGES } from './limits.ts';
import { fetchAccount } from './account.ts';
import { blueskyEngagement } from './engagement.ts';
import { blueskyPublisher } from './publish.ts';
import { login, refresh, revoke } from './session.ts';
import type { XrpcClient } from './xrpc.ts';

import { isAppPassword } from './app-password.ts';

export { isAppPassword };
export type { BlueskyProfileSlice } from './account.ts';
export { jwtClaims } from './session.ts';
export { BLUESKY_CAPABILITIES } from './limits.ts';

/** The real network's hosts; config `urls` override any of them (sandbox, self-hosted PDS, local PLC). */
export const BLUESKY_DEFAULT_URLS = {
  /** Entryway: resolves handles, and is the PDS of tokens that predate per-account PDS discovery. */
  service: 'https://bsky.social',
  appView: 'https://public.api.bsky.app',
  plc: 'https://plc.directory',
  video: 'https://video.bsky.app',
  /** The public web app, where a post's permalink points (the sandbox serves its simulated posts' pages). */
  web: 'https://bsky.app',
} as const;

export type BlueskyUrls = { -readonly [K in keyof typeof BLUESKY_DEFAULT_URLS]: string };

export function blueskyUrls(configured: Record<string, string>): BlueskyUrls {
  return resolveHosts(BLUESKY_DEFAULT_URLS, configured);
}

export const blueskyAdapter: AdapterFactory = (deps): PlatformAdapter => {
  const urls = blueskyUrls(deps.config.urls);
  const client: XrpcClient = { http: deps.http, clock: deps.clock, logger: deps.logger };
  const auth: AppPasswordAuth = {
    kind: 'app_password',
    refusePassword: (value) =>
      isAppPassword(value)
        ? null
        : 'This is not a Bluesky app password (format xxxx-xxxx-xxxx-xxxx). Create one in Bluesky under Settings → Privacy and security → App passwords; Herald never accepts your account password.',
    // An account password shaped like an app password still yields a full-access session: refuse it.
    refuseSession: (tokens) =>
      tokens.scopes?.includes('com.atproto.access')
        ? 'That is the account password, not an app password. Create an app password in Bluesky under Settings → Privacy and security → App passwords.'
        : null,
    login: (p) => login(client, urls, p),
    refresh: (tokens) => refresh(client, urls.service, tokens),
    revoke: (tokens) => revoke(client, urls.service, tokens),
  };
  return {
    platform: 'bluesky',
    displayName: PLATFORM_NAMES.bluesky,
    capabilities: BLUESKY_CAPABILITIES,
    auth,
    // App passwords need no app registration: any server can connect Bluesky accounts.
    configured: true,
    fetchAccount: (tokens) => fetchAccount(client, urls.service, tokens),
    publisher: blueskyPublisher(client, urls),
    engagement: blueskyEngagement(client, urls),
  };
};

/**
 * The body's `bluesky` object (beyond the interface, which has none for Bluesky): the images' alt texts, in the order
 * of the images (`alt_text` is the first image's). An absent or null entry leaves that image without one; text and
 * video posts ignore them.
 */
const override = z.object({
  alt_text: z
    .string()
    .max(ALT_TEXT_MAX * 8)
    .nullish(),
  alt_texts: z
    .array(
      z
        .string()
        .max(ALT_TEXT_MAX * 8)
        .nullable(),
    )
    .max(MAX_IMAGES)
    .nullish(),
});

export const network = defineNetwork({
  slug: 'bluesky',
  displayName: PLATFORM_NAMES.bluesky,
  aliases: ['bsky', 'blue sky'],
  authKind: 'app_password',
  capabilities: BLUESKY_CAPABILITIES,
  media: BLUESKY_MEDIA,
  fields: { alt_text: { max: ALT_TEXT_MAX, unit: 'graphemes' } },
  override,
  // A reply in the post's own thread: Bluesky has no comments apart from replies.
  firstComment: { limit: BLUESKY_CAPABILITIES.text!, form: 'reply' },
  hosts: BLUESKY_DEFAULT_URLS,
  adapter: blueskyAdapter,
  plan({ postType, o, base, caption, limit, requireMedia, media: mediaOf, invalid, target }) {
    caption(base, 'default_text');
    const media = mediaOf();
    requireMedia(media);
    const alts: (string | null)[] = [...(o.alt_texts ?? [])];
    if (o.alt_text != null) {
      if (o.alt_texts?.[0] != null && o.alt_texts[0] !== o.alt_text)
        throw invalid('bluesky.alt_text and bluesky.alt_texts[0] both give the first image an alt text; set one.');
      alts[0] = o.alt_text;
    }
    for (const [i, alt] of alts.entries()) limit(alt ?? undefined, 'alt_text', `bluesky.alt_texts[${i}]`);
    // Like tiktok_title on a video, alt texts are not used where there are no images (text and video posts).
    const images = postType === 'image' || postType === 'carousel';
    if (images && alts.length > media.length)
      throw invalid(`bluesky.alt_texts has ${alts.length} entries for ${media.length} image(s).`);
    target({
      text: base,
      media,
      options: images && alts.some((a) => a) ? { alt_texts: alts.map((a) => a ?? '') } : {},
    });
  },
});
