// Where an adapter points each network's hosts when running against the sandbox. Every value replaces the origin of a
// real host; the adapter appends the real path unchanged (e.g. `${authBase}/oauth/v2/authorization`). Each simulator
// declares its own (baseUrls in its index.ts).
import { SIMULATORS } from './simulators.ts';

export const SANDBOX_MOUNT = '/sandbox';

type Simulator = (typeof SIMULATORS)[number];

/** By slug, the simulator's host keys (e.g. linkedin: authBase, apiBase). */
export type SandboxBaseUrls = { [S in Simulator as S['slug']]: ReturnType<S['baseUrls']> };

/** The base URL of a simulator mounted under `publicUrl`. */
export const sandboxBase = (publicUrl: string, slug: string): string =>
  `${publicUrl.replace(/\/+$/, '')}${SANDBOX_MOUNT}/${slug}`;

export function sandboxBaseUrls(publicUrl: string): SandboxBaseUrls {
  return Object.fromEntries(
    SIMULATORS.map((s) => [s.slug, s.baseUrls(sandboxBase(publicUrl, s.slug))]),
  ) as SandboxBaseUrls;
}
