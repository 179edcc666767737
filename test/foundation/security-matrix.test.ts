// Every route of the built app has a security-matrix entry (test/helpers/security-routes.ts) that agrees with the
// access rule the route declares, and every entry's matrix runs here against one app.
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.ts';
import { accountRouteMatrix, adminRouteMatrix, mcpRouteMatrix, securityMatrix } from '../helpers/security-matrix.ts';
import { SECURITY_ROUTES } from '../helpers/security-routes.ts';
import { cookieSessionColumn } from '../helpers/security-matrix-cookie.ts';

let h: Harness;
const routes: RouteOptions[] = [];
beforeAll(async () => {
  // The sandbox is mounted so its routes are listed too (they are the simulators, outside Herald's rules).
  h = await createHarness({ sandbox: true, configureApp: (app) => app.addHook('onRoute', (r) => void routes.push(r)) });
  // The first account of an instance is its administrator; the matrices' users must not be.
  await h.signup();
});
afterAll(async () => h?.close());

const keysOf = (r: RouteOptions): string[] =>
  [r.method]
    .flat()
    .filter((m) => m !== 'HEAD')
    .map((m) => `${m} ${r.url}`);

describe('security matrix catalog', () => {
  it('has an entry for every route, of the kind the route declares, with its plan feature and platform check', () => {
    const mismatches: string[] = [];
    const seen = new Set<string>();
    for (const route of routes) {
      // The swagger-ui plugin's routes get their rule from the access plugin's default after this hook saw them.
      const access = route.config?.access ?? (route.url.startsWith('/docs') ? { kind: 'public' as const } : undefined);
      if (access?.kind === 'simulator') continue;
      for (const key of keysOf(route)) {
        seen.add(key);
        const entry = SECURITY_ROUTES[key];
        if (!entry) {
          mismatches.push(`${key}: no entry (declares ${access?.kind ?? 'nothing'})`);
          continue;
        }
        const kind = access?.kind === 'user' ? 'account' : access?.kind;
        if (entry.matrix !== kind)
          mismatches.push(`${key}: entry is '${entry.matrix}', the route declares '${access?.kind}'`);
        if (access?.kind === 'workspace' && entry.matrix === 'workspace') {
          if (access.feature !== entry.feature)
            mismatches.push(
              `${key}: feature ${String(entry.feature)} in the entry, ${String(access.feature)} on the route`,
            );
          if ((access.planStatus ?? 403) !== (entry.planStatus ?? 403))
            mismatches.push(
              `${key}: plan refusal ${entry.planStatus ?? 403} in the entry, ${access.planStatus ?? 403} on the route`,
            );
          if (Boolean(access.platforms) !== Boolean(entry.platform) && !entry.prepare)
            mismatches.push(`${key}: the route ${access.platforms ? 'checks' : 'does not check'} platforms`);
        }
      }
    }
    for (const key of Object.keys(SECURITY_ROUTES))
      if (!seen.has(key)) mismatches.push(`${key}: an entry for a route the app does not have`);
    expect(mismatches).toEqual([]);
  });
});

describe('security matrix', () => {
  for (const [key, entry] of Object.entries(SECURITY_ROUTES)) {
    const method = key.split(' ')[0] as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    if (entry.matrix === 'workspace') securityMatrix(() => h, { ...entry, method });
    else if (entry.matrix === 'account') accountRouteMatrix(() => h, { ...entry, method });
    else if (entry.matrix === 'admin') adminRouteMatrix(() => h, { ...entry, method });
    else if (entry.matrix === 'mcp') mcpRouteMatrix(() => h, entry);
  }
});

describe('security matrix: the cookie-session column', () => {
  cookieSessionColumn(() => h, SECURITY_ROUTES);
});
