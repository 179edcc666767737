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
}
