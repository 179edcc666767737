// Argument helpers shared by the tools: networks named by a model are checked against the registry as REST checks
// them (400-equivalent messages), and lists may come as arrays or comma-separated strings.
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { Platform } from '../platforms/slugs.ts';

/** A list argument: an array of strings, or one comma-separated string (models send both). */
export const stringList = z.union([z.array(z.string().max(500)).max(100), z.string().max(5000)]);

export function splitArg(value: string | string[] | undefined): string[] {
  const list = (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((v) => v.split(','));
  return [...new Set(list.map((v) => v.trim()).filter(Boolean))];
}

/** Network slugs (lower-cased), refused when unknown, in the REST wording. */
export function platformList(app: AppContext, values: string[]): Platform[] {
  const out = values.map((v) => v.trim().toLowerCase()).filter(Boolean);
  for (const v of out) {
    if (!app.platforms.has(v)) throw new AppError('bad_request', `Invalid or unsupported platform: '${v}'. Supported: ${app.platforms.slugs.join(', ')}`);
  }
  return [...new Set(out)] as Platform[];
}
