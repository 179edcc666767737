// Facebook's contract: Pages, through the Graph API.
import { z } from 'zod';
import { defineNetwork } from '../contract.ts';
import { ids, pageImages, pageTexts } from '../fields.ts';
import { PLATFORM_NAMES } from '../slugs.ts';
import type { AdapterFactory } from '../types.ts';
import { facebookAccount } from './account.ts';
import { facebookAuth } from './auth.ts';
import { FACEBOOK_COMMENT_LIMIT, facebookEngagement } from './engagement.ts';
import { DEFAULT_URLS } from './config.ts';
import { FACEBOOK_CAPABILITIES, FACEBOOK_MEDIA } from './limits.ts';
import { facebookPublisher } from './publish.ts';

export const facebookAdapter: AdapterFactory = (deps) => ({
  platform: 'facebook',
  displayName: PLATFORM_NAMES.facebook,
  capabilities: FACEBOOK_CAPABILITIES,
  auth: facebookAuth(deps),
  configured: Boolean(deps.config.clientId && deps.config.clientSecret),
  fetchAccount: facebookAccount(deps),
  publisher: facebookPublisher(deps),
  engagement: facebookEngagement(deps),
});

const override = z.object({
  facebook_page_ids: ids.optional(),
  facebook_page_texts: pageTexts.optional(),
  facebook_page_images: pageImages.optional(),
});

export const network = defineNetwork({
  slug: 'facebook',
  displayName: PLATFORM_NAMES.facebook,
  aliases: ['fb'],
  authKind: 'oauth2',
  capabilities: FACEBOOK_CAPABILITIES,
  media: FACEBOOK_MEDIA,
  override,
  mediaFields: { maps: ['facebook_page_images'] },
  draftFields: (o) => ({ facebook_page_ids: o?.facebook_page_ids ?? null }),
  reads: { kind: 'page', param: 'facebook_page_ids', replyParam: 'facebook_page_id', byDefault: 'destinations' },
  firstComment: { limit: FACEBOOK_COMMENT_LIMIT, form: 'comment' },
  hosts: DEFAULT_URLS,
  adapter: facebookAdapter,
  // A Page left without media (no default, no own image) is refused by planning: alone when another Page has its
  // own image, with the whole request otherwise.
  plan({ postType, o, base, caption, media: mediaOf, ref, invalid, target }) {
    const pages = o.facebook_page_ids ?? [];
    if (!pages.length)
      throw invalid(
        'facebook.facebook_page_ids is required: Facebook posts go to Pages. Find Page ids with GET /unified/user-profiles/.',
      );
    caption(base, 'default_text');
    for (const page of pages) {
      const text = o.facebook_page_texts?.[page] ?? base;
      if (o.facebook_page_texts?.[page] !== undefined) caption(text, `facebook_page_texts[${page}]`);
      const pageImage = ref(o.facebook_page_images?.[page], ['facebook', 'facebook_page_images', page]);
      const media = postType === 'image' && pageImage ? [pageImage] : mediaOf();
      target({ text, media, destination: { kind: 'page', id: page }, options: {} });
    }
  },
});
