// Pinterest's contract: OAuth 2.0, API v5 for the account, its boards and pins.
import { z } from 'zod';
import type { MediaRules } from '../contract.ts';
import { defineNetwork } from '../contract.ts';
import { name, postText, ref } from '../fields.ts';
import { PLATFORM_NAMES } from '../slugs.ts';
import type { AdapterFactory, Capabilities } from '../types.ts';
import { GB, MB } from '../units.ts';
import { fetchPinterestAccount } from './account.ts';
import { pinterestAuth } from './auth.ts';
import { pinterestEngagement } from './engagement.ts';
import { PINTEREST_HOSTS, pinterestContext } from './context.ts';
import { pinterestPublisher } from './publish.ts';

export const PINTEREST_CAPABILITIES: Capabilities = {
  postTypes: ['image', 'carousel', 'video'],
  // The pin title. Counting UTF-16 units never lets through a title Pinterest would count as longer.
  text: { max: 100, unit: 'utf16' },
  asyncProcessing: true,
};

const media: MediaRules = {
  imageFormats: ['jpeg', 'png', 'gif', 'webp'],
  maxImageBytes: 20 * MB,
  carousel: { min: 2, max: 5 },
  videoFormats: ['mp4', 'mov', 'm4v'],
  maxVideoBytes: 2 * GB,
  videoSeconds: { min: 4, max: 15 * 60 },
  preferredImage: { width: 1000, height: 1500 },
};

export const pinterestAdapter: AdapterFactory = (deps) => {
  const ctx = pinterestContext(deps);
  return {
    platform: 'pinterest',
    displayName: PLATFORM_NAMES.pinterest,
    capabilities: PINTEREST_CAPABILITIES,
    auth: pinterestAuth(ctx),
    configured: ctx.configured,
    fetchAccount: (tokens) => fetchPinterestAccount(ctx, tokens),
    publisher: pinterestPublisher(ctx),
    engagement: pinterestEngagement(ctx),
  };
};

const override = z.object({
  board_id: name.optional(),
  pinterestBoardId: name.optional(),
  pinterest_text: postText().optional(),
  pinterest_description: postText().optional(),
  pinterest_image_id: ref.optional(),
});

export const network = defineNetwork({
  slug: 'pinterest',
  displayName: PLATFORM_NAMES.pinterest,
  authKind: 'oauth2',
  capabilities: PINTEREST_CAPABILITIES,
  media,
  fields: {
    // The pin title is the caption limit (capabilities.text).
    pinterest_text: PINTEREST_CAPABILITIES.text!,
    pinterest_description: { max: 500, unit: 'utf16' },
  },
  override,
  topLevel: { every: { board_id: name.optional(), pinterestBoardId: name.optional() } },
  mediaFields: { either: ['pinterest_image_id'] },
  draftFields: (o, body) => ({ pinterest_board_id: o?.board_id ?? o?.pinterestBoardId ?? body.board_id ?? null }),
  reads: { kind: 'board', param: 'board_id', byDefault: 'account' },
  hosts: PINTEREST_HOSTS,
  adapter: pinterestAdapter,
  plan({ postType, body, o, base, limit, requireMedia, media: mediaOf, invalid, fail, target }) {
    const board =
      o.board_id ??
      o.pinterestBoardId ??
      (body.board_id as string | undefined) ??
      (body.pinterestBoardId as string | undefined);
    // Pinterest alone fails (the error catalogue puts board_id_required "in results"); the other networks still
    // publish.
    if (!board) return fail('board_id_required', 'Pinterest pin requires pinterest.board_id');
    if (postType === 'video' && !body.video_id)
      throw invalid('Pinterest requires video_id: upload the video first (POST /media/upload) and pass its media id.');
    limit(o.pinterest_text, 'pinterest_text');
    const description = o.pinterest_description ?? base;
    limit(
      description,
      'pinterest_description',
      o.pinterest_description !== undefined ? 'pinterest_description' : 'default_text',
    );
    const media = mediaOf([[o.pinterest_image_id, ['pinterest', 'pinterest_image_id']]]);
    requireMedia(media);
    target({
      text: description,
      ...(o.pinterest_text ? { title: o.pinterest_text } : {}),
      description,
      media,
      destination: { kind: 'board', id: board },
      options: {},
    });
  },
});
