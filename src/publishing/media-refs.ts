// The media fields of a unified body, for storing a body whose URL media was already imported into
// the library (scheduled posts): the library id goes where the body takes ids, so publishing later
// uses the stored media instead of fetching the URL again. Mirrors how planning reads the fields; each
// network's contract declares its own (`mediaFields`, `topMedia`).
import type { MediaFields, MediaPair, NetworkContract } from '../platforms/contract.ts';
import type { PostBody } from './schemas.ts';

const TOP_PAIRS: readonly MediaPair[] = [
  ['default_image_id', 'default_image_url'],
  ['video_id', 'video_url'],
];

type Obj = Record<string, unknown>;

function rewrite(o: Obj, imported: ReadonlyMap<string, string>, spec: MediaFields): void {
  const idOf = (v: unknown) => (typeof v === 'string' ? imported.get(v) : undefined);
  for (const [idField, urlField] of spec.pairs ?? []) {
    const fromId = idOf(o[idField]);
    if (fromId)
      o[idField] = fromId; // a URL given in the id field
    else if ((o[idField] === undefined || o[idField] === '') && idOf(o[urlField])) o[idField] = idOf(o[urlField]);
  }
  for (const field of spec.either ?? []) {
    const id = idOf(o[field]);
    if (id) o[field] = id;
  }
  for (const field of spec.maps ?? []) {
    const map = o[field];
    if (!map || typeof map !== 'object') continue;
    o[field] = Object.fromEntries(Object.entries(map as Obj).map(([k, v]) => [k, idOf(v) ?? v]));
  }
}

/**
 * The body with the library ids of the URLs it named (`imported`: URL → media id). A `*_url` field
 * keeps its URL (what the client sent, for display) and gains the id in its `*_id` field, which
 * publishing reads first; a field that takes either (a network's `either` fields, the per-page
 * image maps) holds the id instead of the URL. URLs that were not imported (unused) stay as they are.
 */
export function withImportedMedia(
  networks: readonly NetworkContract[],
  body: PostBody,
  imported: ReadonlyMap<string, string>,
): PostBody {
  const out = structuredClone(body) as PostBody & Obj;
  if (!imported.size) return out;
  rewrite(out, imported, { pairs: TOP_PAIRS });
  for (const n of networks) {
    if (n.topMedia) rewrite(out, imported, n.topMedia);
    const o = out[n.slug];
    if (n.mediaFields && o && typeof o === 'object') rewrite(o as Obj, imported, n.mediaFields);
  }
  return out;
}

/**
 * An edit of a stored body (PATCH post_data): top-level fields are replaced, and a media slot the edit
 * names is replaced whole, so a new URL is not shadowed by the id stored for the old one (and a new
 * id does not leave the old URL on display). Override objects are replaced whole anyway.
 */
export function mergeEdit(stored: Obj, edit: Obj): Obj {
  const out: Obj = { ...stored, ...edit };
  for (const [idField, urlField] of TOP_PAIRS) {
    if (urlField in edit && !(idField in edit)) delete out[idField];
    if (idField in edit && !(urlField in edit)) delete out[urlField];
  }
  return out;
}
