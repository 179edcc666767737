// The body kept for one network (a draft, a queue entry): its own override only, no draft flags, and
// for a queue entry no scheduled_time anywhere (the entry's own time is the one that counts).
import { narrowBody } from './drafts.ts';
import { OVERRIDE_KEYS } from './edits.ts';
import type { PostBody } from './schemas.ts';

export function storedBody(body: PostBody, platform: string): PostBody {
  const { scheduled_time: _s, ...narrow } = narrowBody(body, platform) as PostBody & { scheduled_time?: string };
  const out = narrow as PostBody & Record<string, unknown>;
  for (const k of OVERRIDE_KEYS) {
    const o = out[k] as Record<string, unknown> | undefined;
    if (o && 'scheduled_time' in o) {
      const { scheduled_time: _x, ...rest } = o;
      out[k] = rest;
    }
  }
  return out;
}
