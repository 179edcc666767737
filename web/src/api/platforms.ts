// The networks' rules the composer needs (text limits and how they count, media, destinations), from
// GET /unified/platforms: computed by Herald from each network's contract, never copied into the app.
import { useQuery } from '@tanstack/react-query';
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

export function usePlatforms() {
  return useQuery({
    queryKey: ['platforms'],
    queryFn: async (): Promise<PlatformsAnswer> => {
      const answer = await must(api.GET('/unified/platforms'));
      return {
        sandbox: answer.sandbox,
        platforms: answer.platforms.map((p) => ({ ...p, textRule: toTextRule(p.text) })),
      };
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}
