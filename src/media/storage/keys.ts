// Object keys: unguessable, namespaced per workspace, and safe as both file paths and URL paths.
import { randomBytes } from 'node:crypto';
import { InvalidKeyError } from './types.ts';

// A leading dot is refused, which rules out "." and ".." and keeps the disk backend's own .tmp/.meta apart.
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;
const SCOPE = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const MAX_KEY_LENGTH = 1024;
const MAX_SEGMENTS = 16;

/** Throws InvalidKeyError unless the key is a relative, slash-separated path of plain ASCII segments. */
export function assertValidKey(key: string): void {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) throw new InvalidKeyError(key, 'empty or too long');
  const segments = key.split('/');
  if (segments.length > MAX_SEGMENTS) throw new InvalidKeyError(key, 'too many segments');
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) throw new InvalidKeyError(key, `bad segment ${JSON.stringify(segment.slice(0, 50))}`);
  }
}

export function isValidKey(key: string): boolean {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

/**
 * Turns a user's file name into one safe segment: ASCII letters, digits, ".", "_" and "-", at most
 * 100 characters plus extension. When `extension` is given (from sniffing the bytes) it replaces
 * whatever extension the name claimed.
 */
export function sanitizeFilename(name: string, extension?: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const claimedExt = dot > 0 ? base.slice(dot + 1) : '';
  const stem = (dot > 0 ? base.slice(0, dot) : base)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[._-]+/, '')
    .slice(0, 100)
    .replace(/[.-]+$/, '');
  const ext = (extension ?? claimedExt).toLowerCase().replace(/[^a-z0-9]/g, '');
  const safeStem = stem || 'file';
  return ext && ext.length <= 10 ? `${safeStem}.${ext}` : safeStem;
}

export interface ObjectKeyParts {
  workspaceId: string;
  /** "library" for the media library, or the slug of the network an upload is staged for. */
  scope: string;
  filename: string;
  /** Extension to force, normally the sniffed format's. */
  extension?: string;
}

/** `<workspace_id>/<scope>/<128 random bits, base64url>/<sanitized filename>` */
export function newObjectKey(parts: ObjectKeyParts): string {
  if (!SEGMENT.test(parts.workspaceId)) throw new InvalidKeyError(parts.workspaceId, 'bad workspace id');
  if (!SCOPE.test(parts.scope)) throw new InvalidKeyError(parts.scope, 'bad scope');
  const token = randomBytes(16).toString('base64url');
  const key = `${parts.workspaceId}/${parts.scope}/${token}/${sanitizeFilename(parts.filename, parts.extension)}`;
  assertValidKey(key);
  return key;
}

/** Percent-encodes a validated key for use in a URL path (its characters are all URL-safe already). */
export function keyToUrlPath(key: string): string {
  assertValidKey(key);
  return key.split('/').map(encodeURIComponent).join('/');
}
