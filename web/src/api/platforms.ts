// The networks' rules the composer needs (text limits and how they count, media, destinations), from
// GET /unified/platforms: computed by Herald from each network's contract, never copied into the app.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TextRule } from '../compose/count.ts';
import { api, must } from './client.ts';
import type { paths } from './schema.d.ts';

type Answer = paths['/unified/platforms']['get']['responses'][200]['content']['application/json'];
export type PlatformWire = Answer['platforms'][number];

export interface PlatformInfo extends PlatformWire {
  /** The text rule as the counters take it. */
  textRule: TextRule | null;
}

export interface PlatformsAnswer {
  sandbox: boolean;
  platforms: PlatformInfo[];
}

export const toTextRule = (text: PlatformWire['text']): TextRule | null =>
  text ? { max: text.max, unit: text.unit, maxBytes: text.max_bytes } : null;

export async function fetchPlatforms(): Promise<PlatformsAnswer> {
  const answer = await must(api.GET('/unified/platforms'));
  return {
    sandbox: answer.sandbox,
    platforms: answer.platforms.map((p) => ({ ...p, textRule: toTextRule(p.text) })),
  };
}

/** GET /unified/platforms as a query: the same for every workspace, fixed while the server runs. */
export const platformsQuery = queryOptions({
  queryKey: ['platforms'],
  queryFn: () => fetchPlatforms(),
  staleTime: Number.POSITIVE_INFINITY,
});

export function usePlatforms() {
  return useQuery(platformsQuery);
}
