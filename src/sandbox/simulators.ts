// The simulators the sandbox mounts: one line per simulator folder.
import type { SandboxSimulator } from './core/simulator.ts';
import { simulator as bluesky } from './bluesky/index.ts';
import { simulator as facebook } from './facebook/index.ts';
import { simulator as instagram } from './instagram/index.ts';
import { simulator as linkedin } from './linkedin/index.ts';
import { simulator as pinterest } from './pinterest/index.ts';
import { simulator as threads } from './threads/index.ts';
import { simulator as tiktok } from './tiktok/index.ts';
import { simulator as youtube } from './youtube/index.ts';

export const SIMULATORS = [
  linkedin,
  facebook,
  instagram,
  threads,
  tiktok,
  youtube,
  pinterest,
  bluesky,
] as const satisfies readonly SandboxSimulator[];
