// What the composer sends: the unified post body (POST /unified/post/{type}, /unified/scheduled-posts) built from
// the composer's state, with each network's text override in the field that network reads. Pure: no DOM.
import type { paths } from '../api/schema.d.ts';
// The server's own function (it imports nothing), so the preview shows exactly the links a network receives.
import { applyUtm } from '../../../src/publishing/utm.ts';

export type ScheduleBody = paths['/unified/scheduled-posts']['post']['requestBody']['content']['application/json'];
export type PostBody = Omit<ScheduleBody, 'post_type' | 'scheduled_time'>;
export type PostType = ScheduleBody['post_type'];

export interface PickedMedia {
  media_id: string;
  media_type: string;
  public_url: string;
  filename: string;
}

export interface ComposerState {
  text: string;
  /** Selected networks, by slug. */
  networks: string[];
  /** A network's own text instead of `text` ('' or absent: none). */
  overrides: Record<string, string>;
  media: PickedMedia[];
  facebookPageIds: string[];
  linkedinPageIds: string[];
  linkedinPersonal: boolean;
  pinterestBoardId: string;
  youtubeTitle: string;
  youtubePlaylistId: string;
  /** utm_campaign for the text's links ('' : none). */
  utmCampaign: string;
  /** The first comment, posted under the post once published ('' : none). */
  firstComment: string;
  /** A network's own first comment instead of `firstComment` ('' or absent: the common one). */
  firstCommentOverrides: Record<string, string>;
}

export const emptyComposer = (): ComposerState => ({
  text: '',
  networks: [],
  overrides: {},
  media: [],
  facebookPageIds: [],
  linkedinPageIds: [],
  linkedinPersonal: true,
  pinterestBoardId: '',
  youtubeTitle: '',
  youtubePlaylistId: '',
  utmCampaign: '',
  firstComment: '',
  firstCommentOverrides: {},
});

/** Where each network takes its own text (object and field of the body); Facebook's is per page. */
export const TEXT_OVERRIDE: Record<string, { object: string; field: string }> = {
  linkedin: { object: 'linkedin', field: 'linkedin_text' },
  facebook: { object: 'facebook', field: 'facebook_page_texts' },
  instagram: { object: 'instagram', field: 'instagram_text' },
  threads: { object: 'threads', field: 'threads_text' },
  tiktok: { object: 'tiktok', field: 'tiktok_text' },
  youtube: { object: 'youtube', field: 'youtube_description' },
  pinterest: { object: 'pinterest', field: 'pinterest_description' },
};

/** The field path (as the API's validation errors name it) of a network's text. */
export const textFieldOf = (network: string): string =>
  TEXT_OVERRIDE[network] ? `${TEXT_OVERRIDE[network].object}.${TEXT_OVERRIDE[network].field}` : 'default_text';

/** The text a network publishes: its override, else the common text. */
export const textFor = (s: ComposerState, network: string): string =>
  TEXT_OVERRIDE[network] && s.overrides[network]?.trim() ? s.overrides[network] : s.text;

/** The text as `network` receives it: its text with the UTM campaign's parameters on its links. */
export const publishedTextFor = (s: ComposerState, network: string): string =>
  applyUtm(textFor(s, network), s.utmCampaign.trim() ? { campaign: s.utmCampaign.trim() } : undefined, network);

/** The first comment a network gets: its own, else the common one ('' : none). */
export const firstCommentFor = (s: ComposerState, network: string): string =>
  TEXT_OVERRIDE[network] && s.firstCommentOverrides[network]?.trim()
    ? s.firstCommentOverrides[network]
    : s.firstComment.trim()
      ? s.firstComment
      : '';

/** The field path (as the API's validation errors name it) of a network's first comment. */
export const firstCommentFieldOf = (network: string): string =>
  TEXT_OVERRIDE[network] ? `${network}.first_comment` : 'first_comment';

/** What the body needs to know of the networks' rules. */
export interface BodyRules {
  /** Networks that take no first comment: they are left out of it (`"<slug>": {"first_comment": ""}`). */
  noFirstComment?: readonly string[];
}

/** The post route the media make: none → text, one image → image, several images → carousel, a video → video. */
export function postTypeOf(media: PickedMedia[]): PostType {
  if (media.some((m) => m.media_type === 'video')) return 'video';
  if (media.length >= 2) return 'carousel';
  if (media.length === 1) return 'image';
  return 'text';
}

export function buildPostBody(s: ComposerState, rules: BodyRules = {}): PostBody {
  const body: PostBody = { platforms: [...s.networks] };
  if (s.text.trim()) body.default_text = s.text;
  if (s.utmCampaign.trim()) body.utm = { campaign: s.utmCampaign.trim() };
  const type = postTypeOf(s.media);
  if (type === 'video') body.video_id = s.media.find((m) => m.media_type === 'video')!.media_id;
  else if (type === 'carousel') body.image_ids = s.media.map((m) => m.media_id);
  else if (type === 'image') body.default_image_id = s.media[0]!.media_id;
  const own = (n: string) => (s.networks.includes(n) && s.overrides[n]?.trim() ? s.overrides[n] : undefined);
  const has = (n: string) => s.networks.includes(n);
  if (has('linkedin')) {
    const pages = s.linkedinPageIds;
    const linkedin: NonNullable<PostBody['linkedin']> = {};
    if (own('linkedin')) linkedin.linkedin_text = own('linkedin')!;
    if (pages.length) {
      linkedin.linkedin_page_ids = pages;
      if (s.linkedinPersonal) linkedin.post_to_personal = true;
    }
    if (Object.keys(linkedin).length) body.linkedin = linkedin;
  }
  if (has('facebook')) {
    const facebook: NonNullable<PostBody['facebook']> = { facebook_page_ids: s.facebookPageIds };
    const text = own('facebook');
    if (text) facebook.facebook_page_texts = Object.fromEntries(s.facebookPageIds.map((id) => [id, text]));
    body.facebook = facebook;
  }
  if (own('instagram')) body.instagram = { instagram_text: own('instagram')! };
  if (own('threads')) body.threads = { threads_text: own('threads')! };
  if (own('tiktok')) body.tiktok = { tiktok_text: own('tiktok')! };
  if (has('youtube')) {
    const youtube: NonNullable<PostBody['youtube']> = {};
    if (s.youtubeTitle.trim()) youtube.youtube_title = s.youtubeTitle.trim();
    if (own('youtube')) youtube.youtube_description = own('youtube')!;
    if (s.youtubePlaylistId) youtube.youtube_playlist_id = s.youtubePlaylistId;
    if (Object.keys(youtube).length) body.youtube = youtube;
  }
  if (has('pinterest')) {
    const pinterest: NonNullable<PostBody['pinterest']> = {};
    if (s.pinterestBoardId) pinterest.board_id = s.pinterestBoardId;
    if (own('pinterest')) pinterest.pinterest_description = own('pinterest')!;
    if (Object.keys(pinterest).length) body.pinterest = pinterest;
  }
  addFirstComment(body, s, rules);
  return body;
}

/**
 * The first comment: the common one in `first_comment`, a network's own in its override object, and "" there for a
 * network that takes none (publishing refuses a first comment such a network would get).
 */
function addFirstComment(body: PostBody, s: ComposerState, rules: BodyRules) {
  const common = s.firstComment.trim() ? s.firstComment : undefined;
  if (common) body.first_comment = common;
  const overrides = body as Record<string, unknown>;
  const put = (network: string, text: string) => {
    overrides[network] = { ...((overrides[network] as object | undefined) ?? {}), first_comment: text };
  };
  for (const n of s.networks) {
    if (!TEXT_OVERRIDE[n]) continue;
    const takesNone = rules.noFirstComment?.includes(n) ?? false;
    const own = s.firstCommentOverrides[n]?.trim() ? s.firstCommentOverrides[n]! : undefined;
    if (takesNone) {
      if (common) put(n, '');
    } else if (own && own !== common) put(n, own);
  }
}

export function buildScheduleBody(s: ComposerState, scheduledTime: string, rules: BodyRules = {}): ScheduleBody {
  return { ...buildPostBody(s, rules), post_type: postTypeOf(s.media), scheduled_time: scheduledTime };
}
