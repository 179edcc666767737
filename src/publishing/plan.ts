// From a unified post body to one planned target per network and destination, validated before
// anything is sent. Network-neutral: each network's contract (platforms/<net>/network.ts) plans its
// own targets with the checks below.
import { AppError, validationField } from '../errors.ts';
import type {
  CommonBody,
  FieldLimit,
  MediaRef,
  NetworkContract,
  OwnMedia,
  PlanKit,
  PlannedTarget,
  FieldPath,
} from '../platforms/contract.ts';
import type { PostType } from '../platforms/publishing.ts';
import type { Networks as NetworkSet } from '../platforms/registry.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { TextLimit } from '../platforms/types.ts';
import { hasVisibleText, type PostBody } from './schemas.ts';
import { countText } from './text.ts';
import { applyUtm, type UtmSetting } from './utm.ts';

export type { FieldPath, MediaRef, PlannedTarget } from '../platforms/contract.ts';

const invalid = (message: string) => new AppError('validation', message);

export function assertLength(
  platform: string,
  text: string | undefined,
  limit: FieldLimit | TextLimit,
  field: string,
): void {
  if (text === undefined) return;
  const n = countText(text, limit.unit);
  if (n > limit.max) {
    const tooLong = 'tooLong' in limit ? limit.tooLong : undefined;
    if (tooLong) throw invalid(tooLong(n));
    if (limit.unit === 'bytes')
      throw invalid(`Max text size for ${platform} is ${limit.max} UTF-8 bytes. Received ${n} bytes in ${field}.`);
    throw invalid(`Max text character limit for ${platform} is ${limit.max}. Received ${n} characters in ${field}.`);
  }
  const bytes = limit.maxBytes === undefined ? 0 : countText(text, 'bytes');
  if (limit.maxBytes !== undefined && bytes > limit.maxBytes) {
    throw invalid(
      `Max text size for ${platform} is ${limit.maxBytes} UTF-8 bytes. Received ${bytes} bytes in ${field}.`,
    );
  }
}

/** The subset of the registry planning reads. */
export type PlanNetworks = Pick<NetworkSet, 'has' | 'network' | 'slugs'>;

/** 400s of the interface: unknown platform, wrong route, empty list, draft_platforms not a subset. */
export function parseRoutePlatforms(
  networks: PlanNetworks,
  postType: PostType,
  body: PostBody,
): { platforms: Platform[]; drafts: Set<Platform> } {
  const raw = body.platforms
    .flatMap((p) => p.split(','))
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  if (!raw.length) throw new AppError('bad_request', 'platforms must have at least one platform');
  for (const p of raw) {
    if (!networks.has(p))
      throw new AppError(
        'bad_request',
        `Invalid or unsupported platform: '${p}'. Supported: ${networks.slugs.join(', ')}`,
      );
    if (!networks.network(p).capabilities.postTypes.includes(postType))
      throw new AppError('bad_request', `This platform does not support ${postType} posting.`);
  }
  const platforms = [...new Set(raw)] as Platform[];
  const draftRaw = (body.draft_platforms ?? []).map((p) => p.trim().toLowerCase());
  const notIn = draftRaw.filter((p) => !platforms.includes(p as Platform));
  if (notIn.length)
    throw new AppError('bad_request', `draft_platforms must be a subset of platforms. Invalid: ${notIn.join(', ')}.`);
  const drafts = new Set<Platform>(body.draft ? platforms : (draftRaw as Platform[]));
  return { platforms, drafts };
}

const ref = (value: string | undefined, field: FieldPath): MediaRef | undefined =>
  value === undefined || value === ''
    ? undefined
    : /^https?:\/\//i.test(value)
      ? { url: value, field }
      : { id: value, field };

function mediaFor(postType: PostType, body: CommonBody, own: readonly OwnMedia[]): MediaRef[] {
  if (postType === 'carousel') return (body.image_ids ?? []).map((id, i) => ({ id, field: ['image_ids', i] }));
  if (postType === 'video') {
    const v = ref(body.video_id, ['video_id']) ?? ref(body.video_url, ['video_url']);
    return v ? [v] : [];
  }
  if (postType === 'image') {
    const r =
      own.map(([value, field]) => ref(value, field)).find(Boolean) ??
      ref(body.default_image_id, ['default_image_id']) ??
      ref(body.default_image_url, ['default_image_url']);
    return r ? [r] : [];
  }
  return [];
}

export interface PlanInput {
  networks: PlanNetworks;
  postType: PostType;
  body: PostBody;
  /** Where the body sits in the request, for the `loc` of field errors (default ['body']). */
  at?: FieldPath;
}

export function planTargets({ networks, postType, body, at = ['body'] }: PlanInput): PlannedTarget[] {
  const { platforms, drafts } = parseRoutePlatforms(networks, postType, body);
  const base = body.default_text ?? '';
  const targets: PlannedTarget[] = [];
  for (const p of platforms) {
    const network = networks.network(p);
    const o = ((network.override ? body[p] : undefined) ?? {}) as Record<string, unknown>;
    const scheduled = (o.scheduled_time as string | undefined) ?? body.scheduled_time;
    const common = { platform: p, draft: drafts.has(p), ...(scheduled ? { scheduledTime: scheduled } : {}) };
    // Destinations of an image or video post left without media, decided once the network has planned them all.
    const bare: PlannedTarget[] = [];
    const needsMedia = postType === 'image' || postType === 'video';
    const kit: PlanKit<Record<string, unknown>> = {
      postType,
      body,
      o,
      base,
      caption(text, field) {
        // The text route posts nothing but text: an override that empties it is as bad as no default_text.
        if (postType === 'text' && !hasVisibleText(text))
          throw invalid(`A text post needs visible text: ${field} for ${network.displayName} is empty.`);
        if (network.capabilities.text) assertLength(p, text, network.capabilities.text, field);
      },
      limit(text, key, shownAs = key) {
        const limit = network.fields?.[key];
        if (!limit) throw new Error(`${p} declares no limit for ${key}`);
        assertLength(p, text, limit, shownAs);
      },
      requireMedia(media) {
        if (needsMedia && media.length === 0) throw invalid(missingMedia(network.displayName, postType));
      },
      media: (own = []) => mediaFor(postType, body, own),
      ref,
      invalid,
      fail: (code, message) =>
        targets.push({ text: '', media: [], options: {}, failure: { code, message }, ...common }),
      target: (t) => {
        // Links tagged for this network: the text that goes out, checked against its limit like the text as written.
        const text = applyUtm(t.text, body.utm as UtmSetting | undefined, p);
        if (text !== t.text && network.capabilities.text) assertLength(p, text, network.capabilities.text, 'utm');
        const planned = { ...t, text, ...common };
        if (needsMedia && t.destination && t.media.length === 0) bare.push(planned);
        targets.push(planned);
      },
    };
    const before = targets.length;
    network.plan(kit);
    if (bare.length) unmetMedia(network.displayName, postType, bare, targets.slice(before));
    const comment = firstComment(network, body, o, at);
    if (comment) for (const t of targets.slice(before)) if (!t.failure) t.firstComment = comment;
  }
  return targets;
}

/**
 * The network's first comment: its override's `first_comment` ("" = none there), else the body's. A network whose
 * contract takes none refuses it, and the text must fit the network's comment limit (field errors at the field).
 */
function firstComment(
  network: NetworkContract,
  body: CommonBody,
  o: Record<string, unknown>,
  at: FieldPath,
): string | undefined {
  const own = o.first_comment as string | undefined;
  const text = own ?? body.first_comment;
  if (!text) return undefined;
  const loc = [...at, ...(own !== undefined ? [network.slug, 'first_comment'] : ['first_comment'])];
  const rule = network.firstComment;
  if (!rule)
    throw validationField(
      loc,
      `${network.displayName} does not take a first comment: leave ${network.displayName} out of first_comment with "${network.slug}": {"first_comment": ""}, or post to it separately.`,
      'first_comment_unsupported',
    );
  const n = countText(text, rule.limit.unit);
  const unit = rule.limit.unit === 'bytes' ? 'UTF-8 bytes' : 'characters';
  if (n > rule.limit.max)
    throw validationField(
      loc,
      `The first comment on ${network.displayName} may have at most ${rule.limit.max} ${unit}. Received ${n}.`,
      'string_too_long',
    );
  const bytes = rule.limit.maxBytes === undefined ? 0 : countText(text, 'bytes');
  if (rule.limit.maxBytes !== undefined && bytes > rule.limit.maxBytes)
    throw validationField(
      loc,
      `The first comment on ${network.displayName} may have at most ${rule.limit.maxBytes} UTF-8 bytes. Received ${bytes}.`,
      'string_too_long',
    );
  return text;
}

const missingMedia = (name: string, postType: PostType) =>
  postType === 'image'
    ? `An image is required for ${name}: set default_image_id or default_image_url.`
    : 'A video is required: set video_id or video_url.';

/**
 * Destinations of one network left without media. When another destination of it has media (its own per-page
 * image, with no default for the rest), each of them fails alone in the results, as a network's unmet requirement
 * does; when none has any, the request itself lacks the media: a 422.
 */
function unmetMedia(name: string, postType: PostType, bare: PlannedTarget[], planned: PlannedTarget[]): void {
  if (!planned.some((t) => t.media.length > 0)) throw invalid(missingMedia(name, postType));
  for (const t of bare) {
    const where =
      t.destination!.kind === 'personal' ? 'the personal profile' : `${t.destination!.kind} ${t.destination!.id}`;
    t.failure =
      postType === 'image'
        ? {
            code: 'image_required',
            message: `An image is required for ${name} (${where}): set default_image_id or default_image_url, or give it its own image.`,
          }
        : { code: 'video_required', message: `A video is required for ${name} (${where}): set video_id or video_url.` };
  }
}
