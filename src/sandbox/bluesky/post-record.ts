// Lexicon validation of app.bsky.feed.post as the PDS applies it on createRecord (messages in the PDS's
// "Invalid app.bsky.feed.post record: Record/…" style), plus the blob checks: every referenced blob must have been
// uploaded by the author and be embedded unchanged. Facet byte ranges are also checked against the UTF-8 text
// (start ≤ end ≤ length, on character boundaries) — stricter than the PDS, which stores them and lets readers drop
// them — because a UTF-16 offset there is the most common Bluesky publishing bug.
import { isObj } from '../core/http.ts';
import type { Obj } from '../core/http.ts';
import type { ErrorAnswer } from '../core/route.ts';
import { graphemeCount, utf8Length } from '../core/text.ts';
import { xrpcError } from './errors.ts';

const PREFIX = 'Invalid app.bsky.feed.post record: Record';
const MB = 1_000_000;
/** Current lexicon limits (image blobs were raised to 2,000,000 bytes in 2026; older PDSes still say 1,000,000). */
const IMAGE_MAX = 2 * MB;
const THUMB_MAX = MB;
const VIDEO_MAX = 300 * MB;
const CAPTION_MAX = 20_000;

class Invalid extends Error {
  readonly answer: ErrorAnswer;
  constructor(answer: ErrorAnswer) {
    super(String((answer.body as { message?: string }).message));
    this.answer = answer;
  }
}

const fail = (path: string, message: string): never => {
  throw new Invalid(xrpcError(400, 'InvalidRequest', `${PREFIX}${path} ${message}`));
};

function need(obj: Obj, key: string, path: string): unknown {
  if (obj[key] === undefined) fail(path, `must have the property "${key}"`);
  return obj[key];
}

function str(
  obj: Obj,
  key: string,
  path: string,
  limits: { bytes?: number; graphemes?: number; required?: boolean } = {},
): string | undefined {
  const value = limits.required === false ? obj[key] : need(obj, key, path);
  if (value === undefined) return undefined;
  if (typeof value !== 'string') fail(`${path}/${key}`, 'must be a string');
  const s = String(value);
  if (limits.graphemes !== undefined && graphemeCount(s) > limits.graphemes)
    fail(`${path}/${key}`, `must not be longer than ${limits.graphemes} graphemes`);
  if (limits.bytes !== undefined && utf8Length(s) > limits.bytes)
    fail(`${path}/${key}`, `must not be longer than ${limits.bytes} characters`);
  return s;
}

function array(value: unknown, path: string, max?: number): unknown[] {
  if (!Array.isArray(value)) return fail(path, 'must be an array');
  if (max !== undefined && value.length > max) fail(path, `must not have more than ${max} elements`);
  return value;
}

function object(value: unknown, path: string): Obj {
  if (!isObj(value)) return fail(path, 'must be an object');
  return value;
}

function aspectRatio(value: unknown, path: string): void {
  if (value === undefined) return;
  const ratio = object(value, path);
  for (const k of ['width', 'height']) {
    const n = need(ratio, k, path);
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
      fail(`${path}/${k}`, 'must be an integer of at least 1');
  }
}

function strongRef(value: unknown, path: string): void {
  const ref = object(value, path);
  const uri = str(ref, 'uri', path) ?? '';
  if (!/^at:\/\/[^/]+\/[a-z0-9.-]+\/[A-Za-z0-9._:~-]+$/i.test(uri)) fail(`${path}/uri`, 'must be a valid at-uri');
  str(ref, 'cid', path);
}

export interface BlobStore {
  get(cid: string): { mimeType: string; size: number } | undefined;
}

function blob(
  value: unknown,
  path: string,
  accept: (mime: string) => boolean,
  maxSize: number,
  blobs: BlobStore,
  out: string[],
): void {
  const ref = isObj(value) ? value : null;
  const link = ref && isObj(ref.ref) ? ref.ref.$link : undefined;
  if (
    ref?.$type !== 'blob' ||
    typeof link !== 'string' ||
    typeof ref.mimeType !== 'string' ||
    typeof ref.size !== 'number'
  ) {
    fail(path, 'should be a blob ref');
    return;
  }
  const mime = String(ref.mimeType);
  if (!accept(mime)) fail(path, `mime type ${mime} is not accepted`);
  if (Number(ref.size) > maxSize) fail(path, `file too big (max ${maxSize} bytes)`);
  const stored = blobs.get(link);
  if (!stored) throw new Invalid(xrpcError(400, 'BlobNotFound', `Could not find blob: ${link}`));
  if (stored.mimeType !== mime)
    throw new Invalid(
      xrpcError(
        400,
        'InvalidMimeType',
        `Referenced Mimetype does not match stored blob. Expected: ${stored.mimeType}, Got: ${mime}`,
      ),
    );
  if (stored.size !== ref.size)
    throw new Invalid(
      xrpcError(
        400,
        'InvalidSize',
        `Referenced size does not match stored blob. Expected: ${stored.size}, Got: ${String(ref.size)}`,
      ),
    );
  out.push(link);
}

const image = (mime: string) => mime.startsWith('image/');

function facets(value: unknown, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  // A byte is a character boundary unless it is a UTF-8 continuation byte (10xxxxxx).
  const boundary = (i: number) => i === bytes.length || ((bytes[i] ?? 0) & 0xc0) !== 0x80;
  for (const [i, item] of array(value, '/facets').entries()) {
    const path = `/facets/${i}`;
    const facet = object(item, path);
    const index = object(need(facet, 'index', path), `${path}/index`);
    const start = need(index, 'byteStart', `${path}/index`);
    const end = need(index, 'byteEnd', `${path}/index`);
    if (typeof start !== 'number' || !Number.isInteger(start) || start < 0)
      fail(`${path}/index/byteStart`, 'must be an integer of at least 0');
    if (typeof end !== 'number' || !Number.isInteger(end) || end < 0)
      fail(`${path}/index/byteEnd`, 'must be an integer of at least 0');
    const [s, e] = [Number(start), Number(end)];
    if (e > bytes.length)
      fail(`${path}/index/byteEnd`, `(${e}) is beyond the end of the text (${bytes.length} UTF-8 bytes)`);
    if (s > e) fail(`${path}/index/byteStart`, `(${s}) is after byteEnd (${e})`);
    if (!boundary(s) || !boundary(e))
      fail(`${path}/index`, `(${s}-${e}) splits a UTF-8 character: offsets count UTF-8 bytes, not UTF-16 code units`);
    for (const [j, feature] of array(need(facet, 'features', path), `${path}/features`).entries()) {
      const fpath = `${path}/features/${j}`;
      const f = object(feature, fpath);
      if (f.$type === 'app.bsky.richtext.facet#link') {
        const uri = str(f, 'uri', fpath) ?? '';
        if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(uri)) fail(`${fpath}/uri`, 'must be a valid uri');
      } else if (f.$type === 'app.bsky.richtext.facet#mention') {
        if (!/^did:[a-z]+:[A-Za-z0-9._:%-]+$/.test(str(f, 'did', fpath) ?? ''))
          fail(`${fpath}/did`, 'must be a valid did');
      } else if (f.$type === 'app.bsky.richtext.facet#tag') {
        str(f, 'tag', fpath, { graphemes: 64, bytes: 640 });
      }
    }
  }
}

function embedMedia(embed: Obj, path: string, blobs: BlobStore, out: string[]): void {
  const type = embed.$type;
  if (type === 'app.bsky.embed.images') {
    const images = array(need(embed, 'images', path), `${path}/images`, 4);
    for (const [i, item] of images.entries()) {
      const ipath = `${path}/images/${i}`;
      const img = object(item, ipath);
      str(img, 'alt', ipath);
      blob(need(img, 'image', ipath), `${ipath}/image`, image, IMAGE_MAX, blobs, out);
      aspectRatio(img.aspectRatio, `${ipath}/aspectRatio`);
    }
  } else if (type === 'app.bsky.embed.video') {
    blob(need(embed, 'video', path), `${path}/video`, (m) => m === 'video/mp4', VIDEO_MAX, blobs, out);
    str(embed, 'alt', path, { required: false, graphemes: 1000, bytes: 10_000 });
    aspectRatio(embed.aspectRatio, `${path}/aspectRatio`);
    if (embed.captions !== undefined) {
      for (const [i, caption] of array(embed.captions, `${path}/captions`, 20).entries()) {
        const cpath = `${path}/captions/${i}`;
        const c = object(caption, cpath);
        str(c, 'lang', cpath);
        blob(need(c, 'file', cpath), `${cpath}/file`, (m) => m === 'text/vtt', CAPTION_MAX, blobs, out);
      }
    }
  } else if (type === 'app.bsky.embed.external') {
    const external = object(need(embed, 'external', path), `${path}/external`);
    for (const key of ['uri', 'title', 'description']) str(external, key, `${path}/external`);
    if (external.thumb !== undefined) blob(external.thumb, `${path}/external/thumb`, image, THUMB_MAX, blobs, out);
  }
}

export interface PostSummary {
  text: string;
  /** CIDs of the blobs the post embeds, in order. */
  blobs: string[];
}

/** Validates a post record; returns its text and blob references, or the PDS's error. */
export function validatePost(record: Obj, blobs: BlobStore): PostSummary | ErrorAnswer {
  try {
    const text = str(record, 'text', '', { graphemes: 300, bytes: 3000 }) ?? '';
    const createdAt = str(record, 'createdAt', '') ?? '';
    if (
      !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(createdAt) ||
      Number.isNaN(Date.parse(createdAt))
    ) {
      fail('/createdAt', 'must be an valid atproto datetime (either ISO 8601 or RFC 3339)');
    }
    if (record.langs !== undefined) array(record.langs, '/langs', 3);
    if (record.tags !== undefined) {
      const tags = array(record.tags, '/tags', 8);
      for (const [i, t] of tags.entries()) str({ t }, 't', `/tags/${i}`, { graphemes: 64, bytes: 640 });
    }
    if (record.facets !== undefined) facets(record.facets, text);
    if (record.reply !== undefined) {
      const reply = object(record.reply, '/reply');
      strongRef(need(reply, 'root', '/reply'), '/reply/root');
      strongRef(need(reply, 'parent', '/reply'), '/reply/parent');
    }
    const out: string[] = [];
    if (record.embed !== undefined) {
      const embed = object(record.embed, '/embed');
      if (embed.$type === 'app.bsky.embed.record') strongRef(need(embed, 'record', '/embed'), '/embed/record');
      else if (embed.$type === 'app.bsky.embed.recordWithMedia') {
        strongRef(
          need(object(need(embed, 'record', '/embed'), '/embed/record'), 'record', '/embed/record'),
          '/embed/record/record',
        );
        embedMedia(object(need(embed, 'media', '/embed'), '/embed/media'), '/embed/media', blobs, out);
      } else embedMedia(embed, '/embed', blobs, out);
    }
    return { text, blobs: out };
  } catch (err) {
    if (err instanceof Invalid) return err.answer;
    throw err;
  }
}
