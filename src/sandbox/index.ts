// Herald's platform simulators ("the sandbox"): a fake of each network (simulators.ts lists them) over real HTTP,
// for development, tests and benchmarks. See docs/sandbox.md.
import type { FastifyInstance } from 'fastify';
import { registerAdmin } from './core/admin.ts';
import { registerSeed } from './core/engagement.ts';
import { createContext } from './core/context.ts';
import { installBodyParsers } from './core/http.ts';
import { servePostPages } from './core/post-page.ts';
import { installRecorder } from './core/recorder.ts';
import { guardControlRoutes, type ControlAccess } from './core/control-guard.ts';
import { createStore } from './core/store.ts';
import type { Platform } from './core/types.ts';
import type { SandboxSimulator } from './core/simulator.ts';
import type { StrictMode } from './core/strict.ts';
import { SIMULATORS } from './simulators.ts';

export { SANDBOX_APPS, SANDBOX_APP_NAME } from './apps.ts';
export type { SandboxApp } from './apps.ts';
export { sandboxBase, sandboxBaseUrls, SANDBOX_MOUNT } from './base-urls.ts';
export { SIMULATORS } from './simulators.ts';
export type { SandboxSimulator } from './core/simulator.ts';
export type { SandboxBaseUrls } from './base-urls.ts';
export { AUTO_APPROVE_HEADER, USER_HEADER } from './core/authorize.ts';
export { parseStrictModes, STRICT_MODES } from './core/strict.ts';
export type { StrictMode } from './core/strict.ts';
export type { Platform, OAuthPlatform } from './core/types.ts';

export interface SandboxOptions {
  /** Herald's external base URL, e.g. http://127.0.0.1:8080. */
  publicUrl: string;
  /** Clock for token/code expiry; tests pass a controllable one. */
  now?: () => Date;
  /** Simulated network latency added to every simulator response. */
  latencyMs?: number;
  /**
   * Who an authorization request is for, shown on the consent page (the client app fills it in from
   * the `state` it sent, e.g. Herald's workspace name), so a person opening someone else's link can tell.
   */
  describeRequest?: (platform: Platform, state: string) => Promise<string | null>;
  /**
   * Strict modes on from the start and after every `DELETE /_state` (`"all"` or a list; see docs/sandbox.md), and the
   * hosts the strict media fetcher treats as public (the test host standing in for Herald's public storage).
   */
  strict?: { modes: 'all' | readonly StrictMode[]; publicHosts?: readonly string[] } | undefined;
  /** The simulators to mount (default: the built-in ones). */
  simulators?: readonly SandboxSimulator[];
  /**
   * Who may use the control routes (`/_state`, `/_seed`, `/_faults`, `/_config`); default: anyone. Herald passes
   * HERALD_SANDBOX_CONTROL.
   */
  control?: ControlAccess;
}

/** Register with `app.register(sandboxPlugin, { prefix: '/sandbox', publicUrl })`. */
export async function sandboxPlugin(app: FastifyInstance, opts: SandboxOptions): Promise<void> {
  const closing = new AbortController();
  // Held ("timeout" fault) requests would otherwise keep server.close() waiting for their full hold.
  app.addHook('preClose', async () => closing.abort());
  const simulators = opts.simulators ?? SIMULATORS;
  const store = createStore(
    opts.latencyMs ?? 0,
    simulators.map((s) => s.slug),
    opts.strict,
  );
  const ctx = createContext({
    store,
    publicUrl: opts.publicUrl,
    mount: app.prefix,
    now: opts.now,
    closing: closing.signal,
    describeRequest: opts.describeRequest,
  });
  installBodyParsers(app);
  // The control routes sit in a scope of their own, behind the guard; the simulators answer anyone, as networks do.
  await app.register(async (control) => {
    guardControlRoutes(control, opts.control ?? 'any');
    registerAdmin(control, ctx);
    registerSeed(control, ctx);
  });
  for (const simulator of simulators) {
    await app.register(
      async (scope) => {
        installRecorder(scope, ctx, simulator.slug);
        await simulator.plugin(scope, ctx);
        if (simulator.postPages)
          servePostPages(scope, ctx, simulator.slug, simulator.postPages.network, simulator.postPages.paths);
      },
      { prefix: `/${simulator.slug}` },
    );
  }
}
