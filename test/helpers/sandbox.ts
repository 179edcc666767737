// The one way tests start the platform simulators: a real Fastify app on a loopback port with the sandbox mounted at
// /sandbox, a clock shared by the simulators and whatever the test points at them (adapters, raw HTTP), media
// fixtures served at /fixtures/<name> (so a PublishMedia URL is a real public URL on the same origin), a stand-in for
// Herald's OAuth callback routes, and the _faults / _config / _state controls.
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { parseStrictModes, sandboxPlugin } from '../../src/sandbox/index.ts';
import type { Platform, StrictMode } from '../../src/sandbox/index.ts';
import { freePort } from './net.ts';

export const START = Date.parse('2026-11-21T12:00:00.000Z');

export interface SandboxRecord {
  id: string;
  accountId: string;
  [key: string]: unknown;
}

export interface RecordedCall {
  method: string;
  path: string;
  status: number;
  headers: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/** One network's slice of GET /sandbox/_state: the publishing maps and the request log, plus whatever else it keeps. */
export type SandboxSlice = {
  posts: SandboxRecord[];
  media: SandboxRecord[];
  uploads: SandboxRecord[];
  containers: SandboxRecord[];
  /** Comments and replies (src/sandbox/core/engagement.ts). */
  comments: SandboxRecord[];
  requests: RecordedCall[];
} & Record<string, unknown[]>;

/** The requests a sandbox slice received with this method on a path ending in `suffix`. */
export const calls = (s: SandboxSlice, method: string, suffix: string): RecordedCall[] =>
  s.requests.filter((r) => r.method === method && r.path.endsWith(suffix));

export interface FaultSpec {
  platform: Platform | string;
  operation: string;
  fault: string;
  times?: number;
  holdMs?: number;
}

export interface TestSandbox {
  app: FastifyInstance;
  publicUrl: string;
  /** `${publicUrl}/sandbox` */
  root: string;
  /** A simulator URL: `${root}/${platform}${path}`. */
  url(platform: Platform, path: string): string;
  /** Herald's callback route for a network, as registered with the simulators. */
  callback(platform: Platform): string;
  /** The clock the simulators read (and adapters under test should). */
  clock: () => Date;
  nowMs(): number;
  advance(seconds: number): void;
  /** Arms a fault through POST /sandbox/_faults; fails the test when the sandbox refuses it. */
  fault(body: FaultSpec): Promise<void>;
  /** POST /sandbox/_config (e.g. `{processingMs: 0}`); fails the test when refused; the merged config. */
  configure(body: Record<string, unknown>): Promise<Record<string, unknown>>;
  /**
   * Turns these strict modes off until the next reset, for a test that depends on the lenient behaviour (an audited
   * TikTok app, a verified media domain, a LinkedIn app with refresh tokens…): the opt-out of a test run with
   * HERALD_SANDBOX_STRICT. The other modes stay as the run set them.
   */
  lenient(...modes: StrictMode[]): Promise<void>;
  /** GET /sandbox/_state for one network. */
  state(platform: Platform): Promise<SandboxSlice>;
  /** A raw call to a control route (`_faults`, `_config`, `_state`…), for tests of the controls themselves. */
  control(method: string, path: string, body?: unknown): Promise<Response>;
  /** Serves `bytes` at `{publicUrl}/fixtures/<name>` from now on; its URL. */
  serve(name: string, bytes: Buffer, mime: string): string;
  /** Clears every simulator's state and faults, puts the clock back to START and re-applies the start options. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface SandboxStartOptions {
  /** Simulated latency added to every simulator response. */
  latencyMs?: number;
  /** `_config.processingMs` applied at start and after every reset. */
  processingMs?: number;
  /**
   * Strict modes on from the start and after every reset. Default: HERALD_SANDBOX_STRICT (`all` or a comma-separated
   * list), so `HERALD_SANDBOX_STRICT=all npm test` (npm run test:strict) runs every suite against strict simulators.
   * The test host is declared public for `public_media_only` (it stands in for Herald's public storage); a test of
   * that mode itself clears `publicHosts`.
   */
  strict?: 'all' | readonly StrictMode[];
}

/** The strict modes the environment asks for (HERALD_SANDBOX_STRICT). */
export const envStrictModes = (): 'all' | StrictMode[] => parseStrictModes(process.env.HERALD_SANDBOX_STRICT);

export async function startSandbox(opts: SandboxStartOptions = {}): Promise<TestSandbox> {
  let now = START;
  const clock = (): Date => new Date(now);
  // The sandbox must know its public URL before it is registered, so the port is reserved first and reused.
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const root = `${publicUrl}/sandbox`;
  const fixtures = new Map<string, { bytes: Buffer; mime: string }>();
  const app = Fastify({ logger: false });
  app.get('/fixtures/:name', async (req, reply) => {
    const found = fixtures.get((req.params as { name: string }).name);
    if (!found) return reply.code(404).send({ error: 'no such fixture' });
    return reply.type(found.mime).send(found.bytes);
  });
  // Stands in for Herald's own callback routes, so redirect-following clients finish the chain.
  app.get('/:platform/oauth/callback', async (req) => ({ callback: true, query: req.query }));
  const strict = { modes: opts.strict ?? envStrictModes(), publicHosts: [`127.0.0.1:${port}`] };
  await app.register(sandboxPlugin, {
    prefix: '/sandbox',
    publicUrl,
    now: clock,
    strict,
    ...(opts.latencyMs !== undefined ? { latencyMs: opts.latencyMs } : {}),
  });
  await app.listen({ host: '127.0.0.1', port });

  const control = (method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${root}/${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  const configure = async (body: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const res = await control('POST', '_config', body);
    if (res.status >= 300) throw new Error(`sandbox refused config ${JSON.stringify(body)}: ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  if (opts.processingMs !== undefined) await configure({ processingMs: opts.processingMs });

  return {
    app,
    publicUrl,
    root,
    url: (platform, path) => `${root}/${platform}${path}`,
    callback: (platform) => `${publicUrl}/${platform}/oauth/callback`,
    clock,
    nowMs: () => now,
    advance: (seconds) => {
      now += seconds * 1000;
    },
    fault: async (body) => {
      const res = await control('POST', '_faults', body);
      if (res.status !== 201) throw new Error(`sandbox refused fault ${JSON.stringify(body)}: ${await res.text()}`);
    },
    configure,
    lenient: async (...modes) => {
      await configure({ strict: Object.fromEntries(modes.map((m) => [m, false])) });
    },
    state: async (platform) => {
      const res = await control('GET', `_state?platform=${platform}`);
      const slice = ((await res.json()) as Record<string, SandboxSlice>)[platform];
      if (!slice) throw new Error(`no sandbox state for ${platform}`);
      return slice;
    },
    control,
    serve: (name, bytes, mime) => {
      fixtures.set(name, { bytes, mime });
      return `${publicUrl}/fixtures/${encodeURIComponent(name)}`;
    },
    reset: async () => {
      now = START;
      await control('DELETE', '_state');
      if (opts.processingMs !== undefined) await configure({ processingMs: opts.processingMs });
    },
    close: () => app.close(),
  };
}
