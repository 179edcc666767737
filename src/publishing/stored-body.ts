// The body kept for one network (a draft, a queue entry): its own override only, no draft flags, and
// for a queue entry no scheduled_time anywhere (the entry's own time is the one that counts).
import { narrowBody } from './drafts.ts';
import type { PostBody } from './schemas.ts';

/** `overrideKeys`: the registry's networks that have an override object under their slug. */
export function storedBody(body: PostBody, platform: string, overrideKeys: readonly string[]): PostBody {
  const { scheduled_time: _s, ...narrow } = narrowBody(body, platform, overrideKeys) as PostBody & {
    scheduled_time?: string;
  };
  const out = narrow as PostBody & Record<string, unknown>;
  // narrowBody kept only this network's override.
  const o = out[platform] as Record<string, unknown> | undefined;
  if (o && typeof o === 'object' && 'scheduled_time' in o) {
    const { scheduled_time: _x, ...rest } = o;
    out[platform] = rest;
  }
  return out;
}
