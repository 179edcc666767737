// The networks' rules the composer needs (text limits and how they count), from GET /unified/platforms: computed by
// Herald from each network's contract, never copied into the app.
import { useQuery } from '@tanstack/react-query';
import type { TextRule, TextUnit } from '../compose/count.ts';
import { ApiError } from './errors.ts';

export interface PlatformInfo {
  slug: string;
  display_name: string;
  text: TextRule | null;
}

export interface PlatformsAnswer {
  sandbox: boolean;
  platforms: PlatformInfo[];
}

const UNITS = new Set<TextUnit>(['graphemes', 'utf16', 'bytes']);

function textRule(raw: unknown): TextRule | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as { max?: unknown; unit?: unknown; max_bytes?: unknown; maxBytes?: unknown };
  if (typeof r.max !== 'number' || !UNITS.has(r.unit as TextUnit)) return null;
  const maxBytes = typeof r.max_bytes === 'number' ? r.max_bytes : typeof r.maxBytes === 'number' ? r.maxBytes : null;
  return { max: r.max, unit: r.unit as TextUnit, maxBytes };
}

/** GET /unified/platforms, read defensively: a network without a text rule the app knows gets no counter. */
export function usePlatforms() {
  return useQuery({
    queryKey: ['platforms'],
    queryFn: async (): Promise<PlatformsAnswer> => {
      const res = await fetch('/unified/platforms', {
        credentials: 'include',
        headers: { accept: 'application/json' },
      });
      const body: unknown = await res.json().catch(() => undefined);
      if (!res.ok) throw ApiError.fromBody(body, res.status);
      const b = body as { sandbox?: unknown; platforms?: unknown };
      const list = Array.isArray(b.platforms) ? b.platforms : [];
      return {
        sandbox: b.sandbox === true,
        platforms: list.flatMap((p: unknown) => {
          if (!p || typeof p !== 'object') return [];
          const o = p as { slug?: unknown; display_name?: unknown; text?: unknown };
          if (typeof o.slug !== 'string') return [];
          return [
            {
              slug: o.slug,
              display_name: typeof o.display_name === 'string' ? o.display_name : o.slug,
              text: textRule(o.text),
            },
          ];
        }),
      };
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
