// What each simulator folder exports: the sandbox index mounts every simulator of its list at
// /sandbox/<slug>, and Herald (in sandbox mode) points the network's hosts and app credentials at it.
import type { FastifyInstance } from 'fastify';
import type { SandboxApp } from '../apps.ts';
import type { SandboxContext } from './context.ts';
import type { Platform } from './types.ts';

export interface SandboxSimulator {
  slug: Platform;
  /** Registers the simulator's routes (mounted under its own prefix). */
  plugin: (app: FastifyInstance, ctx: SandboxContext) => Promise<void>;
  /** Each of the network's host keys (see its contract's `hosts`), for a simulator mounted at `base`. */
  baseUrls: (base: string) => Record<string, string>;
  /** The app credentials it accepts; absent for networks without app registration. */
  app?: SandboxApp;
  /**
   * Where its posts' permalinks point: the network's name and the web paths of a post, relative to the mount (the
   * simulator builds each permalink as the network does, on `ctx.base(slug)`); the sandbox serves each post's page
   * there (core/post-page.ts).
   */
  postPages?: { network: string; paths: readonly string[] };
}
