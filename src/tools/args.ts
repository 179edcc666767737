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

/** Networks a read covers: those named (unknown → bad_request), else every network in the caller's key scope that passes `keep`. */
export function readPlatforms(app: AppContext, scope: { platforms: ReadonlySet<string> }, value: string | string[] | undefined, keep?: (p: Platform) => boolean): Platform[] {
  const asked = splitArg(value);
  if (asked.length) {
    const list = platformList(app, asked);
    if (keep) {
      for (const p of list) {
        if (!keep(p)) throw new AppError('bad_request', `Invalid or unsupported platform: '${p}'. Supported: ${app.platforms.slugs.filter(keep).join(', ')}`);
      }
    }
    return list;
  }
  return app.platforms.slugs.filter((s) => scope.platforms.has(s) && (!keep || keep(s)));
}

/** The destination filter of the read routes (facebook_page_ids, linkedin_organization_ids, …) from a tool's arguments. */
export function destinationFilter(app: AppContext, args: Record<string, unknown>): Record<string, string[]> {
  return Object.fromEntries(app.platforms.networks.flatMap((n) => (n.reads ? [[n.reads.param, splitArg(args[n.reads.param] as string | string[] | undefined)]] : [])));
}

/** The one page / organization / channel id a single-post read names, from the network's filter argument. */
export function pageOf(app: AppContext, platform: Platform, args: Record<string, unknown>): string | undefined {
  const reads = app.platforms.network(platform).reads;
  if (!reads) return undefined;
  const [first] = splitArg(args[reads.param] as string | string[] | undefined);
  if (first === undefined) return undefined;
  return reads.idPrefix && first.startsWith(reads.idPrefix) ? first.slice(reads.idPrefix.length) : first;
}
