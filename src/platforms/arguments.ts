// Network lists as callers give them, parsed once for REST and the tools: arrays, repeated query parameters or
// comma-separated strings; slugs lower-cased and checked against the registry in the interface's wording.
import { AppError } from '../errors.ts';
import type { Networks } from './registry.ts';
import type { Platform } from './slugs.ts';

type List = string | string[] | undefined;

/** Accepts ['a','b'], ['a,b'] and 'a,b'; trims and de-duplicates (ids keep their case). */
export function splitList(value: List): string[] {
  const list = (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((v) => v.split(','));
  return [...new Set(list.map((v) => v.trim()).filter(Boolean))];
}

/** Accepts ['a','b'], ['a,b'] and 'a,b'; lower-cases and de-duplicates. */
export function splitPlatforms(value: List): string[] {
  return [...new Set(splitList(value).map((v) => v.toLowerCase()))];
}

/** 400 for any slug the registry does not know, in the interface's wording. */
export function parsePlatforms(networks: Pick<Networks, 'has' | 'slugs'>, values: string[]): Platform[] {
  for (const v of values) {
    if (!networks.has(v))
      throw new AppError(
        'bad_request',
        `Invalid or unsupported platform: '${v}'. Supported: ${networks.slugs.join(', ')}`,
      );
  }
  return values as Platform[];
}

/**
 * The networks a read covers: those asked for (400 for an unknown one, or one `supported` refuses), else every network
 * in the caller's key scope that `supported` keeps.
 */
export function readPlatforms(
  networks: Pick<Networks, 'has' | 'slugs'>,
  scope: { platforms: ReadonlySet<string> },
  value: List,
  supported?: (p: Platform) => boolean,
): Platform[] {
  const asked = splitPlatforms(value);
  if (asked.length) {
    const list = parsePlatforms(networks, asked);
    if (supported)
      for (const x of list)
        if (!supported(x))
          throw new AppError(
            'bad_request',
            `Invalid or unsupported platform: '${x}'. Supported: ${networks.slugs.filter(supported).join(', ')}`,
          );
    return list;
  }
  return networks.slugs.filter((s) => scope.platforms.has(s) && (!supported || supported(s)));
}

/** One network named as a filter (a list's `platform`): lower-cased, 400 when the registry does not know it. */
export function onePlatform(networks: Pick<Networks, 'has' | 'slugs'>, value: string): Platform {
  return parsePlatforms(networks, [value.trim().toLowerCase()])[0]!;
}
