// LinkedIn's contract: members and the organizations they administer.
import { z } from 'zod';
import { defineNetwork, type FieldPath } from '../contract.ts';
import { ids, name, pageImages, pageTexts, postText, ref } from '../fields.ts';
import { PLATFORM_NAMES } from '../slugs.ts';
import type { AdapterFactory } from '../types.ts';
import { linkedinAccount } from './account.ts';
import { linkedinAuth } from './auth.ts';
import { DEFAULT_URLS } from './config.ts';
import { linkedinEngagement } from './engagement.ts';
import { LINKEDIN_COMMENT_MAX } from './read-shapes.ts';
import { LINKEDIN_CAPABILITIES, LINKEDIN_MEDIA } from './limits.ts';
import { linkedinPublisher } from './publish.ts';

export const linkedinAdapter: AdapterFactory = (deps) => ({
  platform: 'linkedin',
  displayName: PLATFORM_NAMES.linkedin,
  capabilities: LINKEDIN_CAPABILITIES,
  auth: linkedinAuth(deps),
  configured: Boolean(deps.config.clientId && deps.config.clientSecret),
  fetchAccount: linkedinAccount(deps),
  publisher: linkedinPublisher(deps),
  engagement: linkedinEngagement(deps),
});

const override = z.object({
  linkedin_text: postText().optional(),
  linkedin_image_id: ref.optional(),
  linkedin_image_url: ref.optional(),
  linkedin_page_ids: ids.optional(),
  post_to_personal: z.boolean().optional(),
  linkedin_page_texts: pageTexts.optional(),
  linkedin_page_images: pageImages.optional(),
  visibility: z.enum(['PUBLIC', 'CONNECTIONS']).optional(),
  image_id: ref.optional(),
  image_url: ref.optional(),
  image_ids: ids.optional(),
  video_id: ref.optional(),
  video_url: ref.optional(),
  thumbnail_image_id: name.optional(),
  generate_thumbnail_from_content: z.boolean().optional(),
});

const bareOrganization = (id: string) => id.replace(/^urn:li:organization:/, '');

/**
 * A page's entry in a per-page map, keyed by the organization's id in either form the profile gives
 * (`urn:li:organization:123` or `123`), whichever form linkedin_page_ids uses.
 */
function forPage<T>(map: Readonly<Record<string, T>> | undefined, page: string): [key: string, value: T] | undefined {
  if (!map) return undefined;
  if (map[page] !== undefined) return [page, map[page]];
  const bare = bareOrganization(page);
  return Object.entries(map).find(([k]) => bareOrganization(k) === bare);
}

export const network = defineNetwork({
  slug: 'linkedin',
  displayName: PLATFORM_NAMES.linkedin,
  aliases: ['li', 'linked in'],
  authKind: 'oauth2',
  capabilities: LINKEDIN_CAPABILITIES,
  media: LINKEDIN_MEDIA,
  override,
  topLevel: { image: { linkedin_image: ref.optional() } },
  mediaFields: {
    pairs: [
      ['linkedin_image_id', 'linkedin_image_url'],
      ['image_id', 'image_url'],
      ['video_id', 'video_url'],
    ],
    maps: ['linkedin_page_images'],
  },
  topMedia: { either: ['linkedin_image'] },
  profileConnectionCount: true,
  publishScope: { destinations: 'linkedin_page_ids', account: 'post_to_personal' },
  draftFields: (o) => ({ linkedin_page_ids: o?.linkedin_page_ids ?? null }),
  reads: {
    kind: 'organization',
    param: 'linkedin_organization_ids',
    replyParam: 'linkedin_organization_id',
    idPrefix: 'urn:li:organization:',
    byDefault: 'both',
    filterExcludesAccount: true,
  },
  firstComment: { limit: { max: LINKEDIN_COMMENT_MAX, unit: 'utf16' }, form: 'comment' },
  hosts: DEFAULT_URLS,
  adapter: linkedinAdapter,
  // A destination left without media (no default, no own page image) is refused by planning: alone when another
  // destination has its own image, with the whole request otherwise.
  plan({ postType, body, o, base, caption, media: mediaOf, ref: refOf, target }) {
    const text = o.linkedin_text ?? base;
    const lo = (f: string): FieldPath => ['linkedin', f];
    const media =
      postType === 'carousel' && o.image_ids?.length
        ? o.image_ids.map((id, i) => ({ id, field: ['linkedin', 'image_ids', i] }))
        : mediaOf([
            [o.linkedin_image_id, lo('linkedin_image_id')],
            [o.linkedin_image_url, lo('linkedin_image_url')],
            [o.image_id, lo('image_id')],
            [o.image_url, lo('image_url')],
            [body.linkedin_image as string | undefined, ['linkedin_image']],
          ]);
    if (postType === 'video' && (o.video_id || o.video_url))
      media.splice(
        0,
        media.length,
        (o.video_id ? refOf(o.video_id, lo('video_id')) : refOf(o.video_url, lo('video_url')))!,
      );
    const visibility = o.visibility ?? body.visibility;
    const shared = {
      media,
      ...(visibility ? { visibility } : {}),
      options: {},
      ...(o.thumbnail_image_id ? { thumbnail: { id: o.thumbnail_image_id, field: lo('thumbnail_image_id') } } : {}),
    };
    caption(text, o.linkedin_text !== undefined ? 'linkedin_text' : 'default_text');
    const pages = o.linkedin_page_ids ?? [];
    if (!pages.length || o.post_to_personal) {
      target({ ...shared, text, destination: { kind: 'personal', id: 'me' } });
    }
    for (const page of pages) {
      const ownText = forPage(o.linkedin_page_texts, page);
      const pageText = ownText?.[1] ?? text;
      if (ownText) caption(pageText, `linkedin_page_texts[${ownText[0]}]`);
      const ownImage = forPage(o.linkedin_page_images, page);
      const pageImage = ownImage && refOf(ownImage[1], lo('linkedin_page_images').concat(ownImage[0]));
      const pageMedia = postType === 'image' && pageImage ? [pageImage] : media;
      target({ ...shared, media: pageMedia, text: pageText, destination: { kind: 'organization', id: page } });
    }
  },
});
