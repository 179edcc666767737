// Field schemas shared by the unified body and the networks' override schemas. Every string, list and
// map is capped, so no body Herald stores or lists can grow without bound.
import { z } from 'zod';

/** Above every network's caption limit (Facebook: 63,206); the networks' own limits are checked when planning. */
export const MAX_TEXT = 65_536;
/** A media id, or the https URL a media field may hold instead. */
const MAX_REF = 4096;
/** Pages, organizations or media ids one list or map may name. */
export const MAX_ITEMS = 100;

export const id = z.string().min(1).max(200);
/** An optional name or id where an empty string has always meant "none". */
export const name = z.string().max(200);
export const ids = z.array(id).max(MAX_ITEMS);
export const ref = z.string().max(MAX_REF);

// Anything but white space, invisible format characters (zero-width space and joiners, BOM, Hangul
// fillers…) and control characters: a caption of only those shows up as an empty post.
const VISIBLE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}]/u;
export const hasVisibleText = (s: string): boolean => VISIBLE.test(s);

/** A text field: when given (and not empty) it must show something. */
export const postText = (max = MAX_TEXT) =>
  z
    .string()
    .max(max)
    .refine(
      (s) => s === '' || hasVisibleText(s),
      'Text must contain visible characters: white space and zero-width characters alone are not text.',
    );

const fewPages = [
  (o: Record<string, unknown>) => Object.keys(o).length <= MAX_ITEMS,
  `At most ${MAX_ITEMS} pages.`,
] as const;
/** Per-page captions, by page id. */
export const pageTexts = z.record(id, postText()).refine(...fewPages);
/** Per-page images (media id or URL), by page id. */
export const pageImages = z.record(id, ref).refine(...fewPages);
