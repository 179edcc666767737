// What the simulators can tell about media without leaving the sandbox. Uploaded bytes are sniffed by their magic
// numbers, as the real services do. Media passed by URL is never fetched (the sandbox makes no outbound calls), so
// it is judged by its URL alone:
// - the file extension gives the format (no or an unknown extension: assumed to be what the call expects);
// - a host under `.invalid` (RFC 6761) cannot be reached, so the network's "could not fetch" error follows;
// - a file name containing `corrupt` downloads fine but fails processing (container ERROR, job FAILED …).
import type { FastifyRequest } from 'fastify';
import { headerValue } from './http.ts';

/** Largest request body an upload route accepts (chunks, parts and single-request uploads). */
export const UPLOAD_BODY_LIMIT = 512 * 1024 * 1024;
export const MB = 1024 * 1024;

const EXTENSIONS: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  heic: 'image/heic',
  mpo: 'image/mpo',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
  pdf: 'application/pdf',
};

const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/** MIME type from magic numbers, or null when the bytes are not a recognised image, video or PDF. */
export function sniff(bytes: Buffer): string | null {
  const ascii = (from: number, to: number): string => bytes.subarray(from, to).toString('latin1');
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'AVI ') return 'video/x-msvideo';
  if (ascii(0, 2) === 'BM' && bytes.length > 14) return 'image/bmp';
  if (ascii(0, 4) === 'II*\u0000' || ascii(0, 4) === 'MM\u0000*') return 'image/tiff';
  if (ascii(0, 4) === '%PDF') return 'application/pdf';
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) return 'video/webm';
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand.startsWith('heic') || brand.startsWith('heix') || brand.startsWith('mif1')) return 'image/heic';
    return brand === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  }
  if (QUICKTIME_ATOMS.has(ascii(4, 8))) return 'video/quicktime';
  return null;
}

export const isImage = (mime: string | null): boolean => mime?.startsWith('image/') === true;
export const isVideo = (mime: string | null): boolean => mime?.startsWith('video/') === true;

export interface UrlMedia {
  url: URL;
  /** From the file extension; null when there is none or it is unknown. */
  mime: string | null;
  reachable: boolean;
  corrupt: boolean;
}

/** Judges a media URL; null when it is not an absolute http(s) URL. */
export function inspectUrl(raw: string | undefined): UrlMedia | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const file = decodeURIComponent(url.pathname.split('/').pop() ?? '').toLowerCase();
  const ext = file.includes('.') ? (file.split('.').pop() ?? '') : '';
  return {
    url,
    mime: EXTENSIONS[ext] ?? null,
    reachable: !url.hostname.endsWith('.invalid') && url.hostname !== 'invalid',
    corrupt: file.includes('corrupt'),
  };
}

export function bodyBytes(req: FastifyRequest): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}

export function isMultipart(req: FastifyRequest): boolean {
  return (headerValue(req, 'content-type') ?? '').toLowerCase().startsWith('multipart/form-data');
}

export interface MultipartFile {
  name: string;
  filename: string;
  type: string;
  bytes: Buffer;
}

export interface MultipartBody {
  /** Fields and files in the order they were sent. */
  entries: Array<{ name: string; value: string | MultipartFile }>;
  fields: Record<string, string>;
  files: Record<string, MultipartFile>;
}

/** Parses a multipart/form-data body (kept raw by the sandbox's catch-all parser); null when it is not one. */
export async function parseMultipart(req: FastifyRequest): Promise<MultipartBody | null> {
  if (!isMultipart(req) || !Buffer.isBuffer(req.body)) return null;
  let form: FormData;
  try {
    const request = new Request('http://sandbox.invalid/', {
      method: 'POST',
      body: req.body,
      headers: { 'content-type': headerValue(req, 'content-type') ?? '' },
    });
    form = await request.formData();
  } catch {
    return null;
  }
  const out: MultipartBody = { entries: [], fields: {}, files: {} };
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      out.entries.push({ name, value });
      if (!(name in out.fields)) out.fields[name] = value;
      continue;
    }
    const file: MultipartFile = {
      name,
      filename: value.name,
      type: value.type,
      bytes: Buffer.from(await value.arrayBuffer()),
    };
    out.entries.push({ name, value: file });
    if (!(name in out.files)) out.files[name] = file;
  }
  return out;
}

/**
 * A plain field of a multipart body without parsing it fully — for deciding a call's fault operation before the
 * handler runs (fields such as `upload_phase` precede the file part).
 */
export function peekMultipartField(req: FastifyRequest, name: string): string | undefined {
  if (!isMultipart(req) || !Buffer.isBuffer(req.body)) return undefined;
  const head = req.body.subarray(0, 64 * 1024).toString('latin1');
  const match = new RegExp(`name="${name}"\\r\\n(?:[^\\r\\n]+\\r\\n)*\\r\\n([^\\r\\n]*)`).exec(head);
  return match?.[1];
}
