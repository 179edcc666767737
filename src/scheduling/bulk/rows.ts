// One row of a bulk import file → one post request, checked by the same schemas and validator as the post routes.
// Every fault is reported at its row and column; nothing here writes.
import type { Principal } from '../../auth/authenticate.ts';
import { assertPlatformsAllowed } from '../../auth/scopes.ts';
import { AppError } from '../../errors.ts';
import { invalidStrings } from '../../input-strings.ts';
import type { PostType } from '../../platforms/publishing.ts';
import type { Networks } from '../../platforms/registry.ts';
import type { Platform } from '../../platforms/slugs.ts';
import { type PostBody, postBodies, type PostValidator } from '../../publishing/index.ts';
import { type OverrideColumn, splitList } from './columns.ts';
import type { QueuePlacer } from './queue-slot.ts';
import type { Cell } from './read.ts';
import { parseCellTime } from './time.ts';

export interface RowError {
  row: number;
  /** The column at fault, or null for the row as a whole. */
  column: string | null;
  message: string;
}

/** A row that passed every check: what the import writes for it. */
export interface RowPost {
  row: number;
  postType: PostType;
  body: PostBody;
  platforms: Platform[];
  /** When it goes out; undefined for a draft. */
  at: Date | undefined;
  /** The queue whose next free slot it takes (then `at` is the slot a validation previewed). */
  queue?: string | undefined;
  draft: boolean;
}

export interface RowContext {
  principal: Principal;
  networks: Pick<Networks, 'networks' | 'has' | 'slugs' | 'network'>;
  overrides: Map<string, OverrideColumn>;
  validator: PostValidator;
  timeZone: string;
  now: Date;
  /** Places rows naming a queue in its next free slots. */
  queues: QueuePlacer;
  /**
   * Turns the media URLs of a row into library media ids (the import), or undefined for a dry run (validation), where
   * URLs are only checked for their form and the media rules are left for the import.
   */
  importMedia?: ((urls: string[], kind: 'image' | 'video', row: number) => Promise<string[]>) | undefined;
}

const VIDEO = /\.(mp4|mov|m4v|webm|mkv|avi)$/i;
const BODY_FIELD_COLUMN: Record<string, string> = {
  default_text: 'text',
  platforms: 'networks',
  scheduled_time: 'time',
  draft: 'draft',
  default_image_url: 'media_urls',
  default_image_id: 'media_urls',
  image_ids: 'media_urls',
  video_url: 'media_urls',
  video_id: 'media_urls',
  first_comment: 'first_comment',
};

const asList = (c: Cell | undefined): string[] =>
  c === undefined || typeof c === 'boolean' ? [] : Array.isArray(c) ? c : splitList(c);

function asBoolean(c: Cell | undefined): boolean | string {
  if (c === undefined) return false;
  if (typeof c === 'boolean') return c;
  const v = String(c).trim().toLowerCase();
  if (['true', 'yes', '1', 'y'].includes(v)) return true;
  if (['false', 'no', '0', 'n', ''].includes(v)) return false;
  return `draft must be true or false. Received '${String(c)}'.`;
}

/** The column an error of the validator is about: its field path, or a column named in its message. */
function columnOf(err: AppError, ctx: RowContext): string | null {
  const fromPath = (path: readonly (string | number)[]): string | null => {
    const names = path.filter((x): x is string => typeof x === 'string' && x !== 'body');
    // A network's own first comment (body.<network>.first_comment) is its <network>_first_comment column.
    const own = names.indexOf('first_comment');
    if (own > 0 && ctx.overrides.has(`${names[own - 1]}_first_comment`)) return `${names[own - 1]}_first_comment`;
    for (const n of [...names].reverse()) {
      if (ctx.overrides.has(n)) return n;
      if (BODY_FIELD_COLUMN[n]) return BODY_FIELD_COLUMN[n];
    }
    return null;
  };
  if (Array.isArray(err.detail)) return fromPath(err.detail[0]?.loc ?? []);
  const text = typeof err.detail === 'string' ? err.detail : err.message;
  for (const col of ctx.overrides.keys()) if (text.includes(col)) return col;
  if (/platform/i.test(text) && err.code !== 'validation') return 'networks';
  if (/media|image|video/i.test(text)) return 'media_urls';
  return 'text';
}

function messageOf(err: AppError): string {
  if (Array.isArray(err.detail)) return err.detail.map((d) => d.msg).join('; ');
  if (typeof err.detail === 'string') return err.detail;
  const m = (err.detail as { message?: unknown }).message;
  return typeof m === 'string' ? m : err.message;
}

/** The row's post, or its errors. */
export async function checkRow(
  row: number,
  cells: Record<string, Cell>,
  ctx: RowContext,
): Promise<RowPost | RowError[]> {
  const errors: RowError[] = [];
  const fail = (column: string | null, message: string) => errors.push({ row, column, message });
  const unusable = invalidStrings(cells, []);
  if (unusable.length) return unusable.map((e) => ({ row, column: String(e.loc[0] ?? '') || null, message: e.msg }));
  const platforms = asList(cells.networks).map((n) => n.toLowerCase());
  if (!platforms.length) fail('networks', 'networks is required: one or more network slugs, separated by commas.');
  for (const n of platforms)
    if (!ctx.networks.has(n)) fail('networks', `Unknown network '${n}'. Networks: ${ctx.networks.slugs.join(', ')}.`);
  const draft = asBoolean(cells.draft);
  if (typeof draft === 'string') fail('draft', draft);
  const queue = typeof cells.queue === 'string' ? cells.queue.trim() : undefined;
  const timeCell = typeof cells.time === 'string' ? cells.time.trim() : undefined;
  let at: Date | undefined;
  if (draft === true && (timeCell || queue))
    fail(timeCell ? 'time' : 'queue', 'A draft has no time or queue: leave them empty, or set draft to false.');
  else if (draft !== true) {
    if (timeCell && queue) fail('queue', 'Give a time or a queue, not both.');
    else if (queue !== undefined) {
      if (!/^[\p{L}\p{N}][\p{L}\p{N} _.-]{0,99}$/u.test(queue))
        fail('queue', 'queue must be a queue name: letters, digits, spaces, _ . - (at most 100 characters).');
      else {
        const placed = await ctx.queues.place(queue, platforms);
        if (typeof placed === 'string') fail('queue', placed);
        else at = placed;
      }
    } else if (!timeCell) fail('time', 'time is required (or a queue, or draft set to true).');
    else {
      const parsed = parseCellTime(timeCell, ctx.timeZone);
      if (typeof parsed === 'string') fail('time', parsed);
      else if (parsed.getTime() <= ctx.now.getTime())
        fail('time', `time must be in the future (now is ${ctx.now.toISOString()}). Received '${timeCell}'.`);
      else at = parsed;
    }
  }
  const urls = asList(cells.media_urls);
  const videos = urls.filter((u) => VIDEO.test(new URL(u, 'https://x.invalid').pathname));
  for (const u of urls) {
    if (!URL.canParse(u) || !/^https?:$/.test(new URL(u).protocol)) fail('media_urls', `'${u}' is not an http(s) URL.`);
    else if (new URL(u).username || new URL(u).password)
      fail('media_urls', 'URLs with embedded credentials are refused.');
  }
  let postType: PostType = 'text';
  if (videos.length && urls.length > 1) fail('media_urls', 'A video post takes one video and no other media.');
  else if (urls.length > 20) fail('media_urls', `At most 20 images in one post; the row has ${urls.length}.`);
  else if (urls.length) postType = videos.length ? 'video' : urls.length === 1 ? 'image' : 'carousel';
  if (errors.length) return errors;
  try {
    assertPlatformsAllowed(ctx.principal.scope, platforms);
  } catch (err) {
    return [{ row, column: 'networks', message: messageOf(err as AppError) }];
  }

  const media = ctx.importMedia ? await mediaIds(ctx, urls, postType, row) : urls;
  if (!Array.isArray(media)) return [media];
  const body: Record<string, unknown> = { platforms };
  if (typeof cells.text === 'string') body.default_text = cells.text;
  if (typeof cells.first_comment === 'string') body.first_comment = cells.first_comment;
  if (postType === 'image') body[ctx.importMedia ? 'default_image_id' : 'default_image_url'] = media[0];
  if (postType === 'video') body[ctx.importMedia ? 'video_id' : 'video_url'] = media[0];
  if (postType === 'carousel') body.image_ids = media;
  for (const [col, o] of ctx.overrides) {
    const v = cells[col];
    if (typeof v !== 'string') continue;
    if (!platforms.includes(o.platform)) {
      fail(col, `${col} is for ${o.platform}, which the row's networks do not name.`);
      continue;
    }
    body[o.platform] = { ...(body[o.platform] as object | undefined), [o.field]: v };
  }
  if (draft === true) body.draft = true;
  if (at) body.scheduled_time = at.toISOString();
  if (errors.length) return errors;
  const parsed = postBodies(ctx.networks.networks)[postType].safeParse(body);
  if (!parsed.success) {
    return parsed.error.issues.map((i) => ({
      row,
      column: columnOf(new AppError('validation', [{ loc: i.path as string[], msg: i.message, type: i.code }]), ctx),
      message: `${i.path.join('.') || 'post'}: ${i.message}`,
    }));
  }
  try {
    await ctx.validator.prepare(ctx.principal, postType, parsed.data as PostBody, {
      media: ctx.importMedia ? 'resolve' : 'unchecked',
    });
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return [{ row, column: columnOf(err, ctx), message: messageOf(err) }];
  }
  return {
    row,
    postType,
    body: parsed.data as PostBody,
    platforms: platforms as Platform[],
    at,
    queue: draft === true ? undefined : queue,
    draft: draft === true,
  };
}

async function mediaIds(
  ctx: RowContext,
  urls: string[],
  postType: PostType,
  row: number,
): Promise<string[] | RowError> {
  if (!urls.length) return [];
  try {
    return await ctx.importMedia!(urls, postType === 'video' ? 'video' : 'image', row);
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return { row, column: 'media_urls', message: messageOf(err) };
  }
}
