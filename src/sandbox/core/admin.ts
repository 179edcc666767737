// Control endpoints of the sandbox: state dump/reset, fault arming and runtime config. Not recorded, no latency.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from './context.ts';
import { documentedFault, errorsOf } from './documented.ts';
import { armFault, DEFAULT_HOLD_MS } from './faults.ts';
import { sendJson } from './http.ts';
import { CREDENTIAL_FREE_OPERATIONS, OPERATION_DESCRIPTIONS, operationsOf } from './operations.ts';
import { resetStore, sliceSnapshot } from './store.ts';
import { STRICT_MODES } from './strict.ts';
import { FAULT_KINDS } from './types.ts';
import type { Platform } from './types.ts';

// Platforms are checked against the store's slugs (the simulators mounted), not a list of their own.
const slug = z.string().min(1).max(100);

const faultBody = z.object({
  platform: slug,
  operation: z.string().min(1),
  fault: z.enum(FAULT_KINDS),
  error: z.string().min(1).max(100).optional(),
  times: z.number().int().positive().optional(),
  holdMs: z.number().int().min(0).max(600_000).optional(),
});

const processingValue = z.number().int().min(0).max(600_000);

const configBody = z.strictObject({
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  lifetimes: z.record(slug, z.record(z.string(), z.number().int().positive())).optional(),
  redirectUris: z.array(z.url()).optional(),
  maxRequests: z.number().int().min(0).max(1_000_000).optional(),
  processingMs: z.union([processingValue, z.record(slug, processingValue)]).optional(),
  publishLimits: z
    .partialRecord(z.enum(['instagram', 'threads', 'tiktok']), z.number().int().min(0).max(1_000_000))
    .optional(),
  strict: z.union([z.literal('all'), z.literal('none'), z.partialRecord(z.enum(STRICT_MODES), z.boolean())]).optional(),
  publicHosts: z.array(z.string().min(1).max(300)).max(100).optional(),
  youtubeDailyQuota: z.number().int().min(0).max(100_000_000).optional(),
  tiktokModerationMs: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3_600_000)
    .optional(),
});

function invalid(message: string) {
  return { error: 'invalid_request', message };
}

function issues(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
}

function catalogue(ctx: SandboxContext): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of ctx.store.slugs) out[p] = operationsOf(ctx, p);
  return out;
}

/** The first of `platforms` the sandbox does not simulate, as a 400 body; null when it simulates them all. */
function unknownPlatform(ctx: SandboxContext, platforms: Iterable<string>) {
  for (const p of platforms)
    if (!(ctx.store.slugs as readonly string[]).includes(p))
      return invalid(`unknown platform "${p}"; one of: ${ctx.store.slugs.join(', ')}`);
  return null;
}

export function registerAdmin(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/_state', async (req, reply) => {
    const only = (req.query as { platform?: string }).platform;
    if (only !== undefined && !(ctx.store.slugs as readonly string[]).includes(only)) {
      return sendJson(reply, 400, invalid(`unknown platform "${only}"`));
    }
    const chosen = only ? [only as Platform] : ctx.store.slugs;
    const out: Record<string, unknown> = {};
    for (const p of chosen) out[p] = sliceSnapshot(ctx.store.slices[p], ctx.nowMs());
    return sendJson(reply, 200, out);
  });

  app.delete('/_state', async (_req, reply) => {
    resetStore(ctx.store);
    return sendJson(reply, 200, { reset: true });
  });

  app.get('/_faults', async (_req, reply) =>
    sendJson(reply, 200, {
      faults: ctx.store.faults,
      kinds: FAULT_KINDS,
      operations: catalogue(ctx),
      errors: Object.fromEntries(ctx.store.slugs.map((p) => [p, errorsOf(ctx, p)])),
      descriptions: OPERATION_DESCRIPTIONS,
    }),
  );

  app.post('/_faults', async (req, reply) => {
    const parsed = faultBody.safeParse(req.body);
    if (!parsed.success) return sendJson(reply, 400, invalid(issues(parsed.error)));
    const unknown = unknownPlatform(ctx, [parsed.data.platform]);
    if (unknown) return sendJson(reply, 400, unknown);
    const { operation, fault } = parsed.data;
    const platform = parsed.data.platform as Platform;
    const known = operationsOf(ctx, platform);
    if (!known.includes(operation)) {
      return sendJson(
        reply,
        400,
        invalid(`operation "${operation}" does not exist on ${platform}; one of: ${known.join(', ')}`),
      );
    }
    if ((fault === 'expire_token' || fault === 'revoke') && CREDENTIAL_FREE_OPERATIONS.has(operation)) {
      return sendJson(reply, 400, invalid(`fault "${fault}" needs a credential; "${operation}" calls carry none`));
    }
    const { error } = parsed.data;
    if ((fault === 'error') !== (error !== undefined)) {
      return sendJson(reply, 400, invalid('"error" names the documented error of an "error" fault, and only of one'));
    }
    if (error !== undefined && !documentedFault(ctx, platform, error)) {
      return sendJson(
        reply,
        400,
        invalid(
          `error "${error}" is not documented for ${platform}; one of: ${errorsOf(ctx, platform).join(', ') || '(none)'}`,
        ),
      );
    }
    const record = armFault(
      ctx.store,
      {
        platform,
        operation,
        fault,
        error,
        times: parsed.data.times ?? 1,
        holdMs: parsed.data.holdMs ?? DEFAULT_HOLD_MS,
      },
      ctx.now(),
    );
    return sendJson(reply, 201, { fault: record });
  });

  app.delete('/_faults', async (_req, reply) => {
    const cleared = ctx.store.faults.length;
    ctx.store.faults = [];
    return sendJson(reply, 200, { cleared });
  });

  app.get('/_config', async (_req, reply) => sendJson(reply, 200, ctx.store.config));

  app.post('/_config', async (req, reply) => {
    const parsed = configBody.safeParse(req.body ?? {});
    if (!parsed.success) return sendJson(reply, 400, invalid(issues(parsed.error)));
    const c = ctx.store.config;
    const {
      latencyMs,
      lifetimes,
      redirectUris,
      maxRequests,
      processingMs,
      publishLimits,
      strict,
      publicHosts,
      youtubeDailyQuota,
      tiktokModerationMs,
    } = parsed.data;
    const unknown = unknownPlatform(ctx, [
      ...Object.keys(lifetimes ?? {}),
      ...(typeof processingMs === 'object' ? Object.keys(processingMs) : []),
    ]);
    if (unknown) return sendJson(reply, 400, unknown);
    if (strict === 'all' || strict === 'none') for (const m of STRICT_MODES) c.strict[m] = strict === 'all';
    else if (strict !== undefined) Object.assign(c.strict, strict);
    if (publicHosts !== undefined) c.publicHosts = publicHosts;
    if (youtubeDailyQuota !== undefined) c.youtubeDailyQuota = youtubeDailyQuota;
    if (tiktokModerationMs !== undefined) c.tiktokModerationMs = tiktokModerationMs;
    if (latencyMs !== undefined) c.latencyMs = latencyMs;
    if (typeof processingMs === 'number') for (const p of ctx.store.slugs) c.processingMs[p] = processingMs;
    else if (processingMs !== undefined) Object.assign(c.processingMs, processingMs);
    if (publishLimits !== undefined) Object.assign(c.publishLimits, publishLimits);
    if (redirectUris !== undefined) c.redirectUris = redirectUris;
    if (maxRequests !== undefined) c.maxRequests = maxRequests;
    if (lifetimes !== undefined) {
      for (const [p, values] of Object.entries(lifetimes)) {
        const platform = p as Platform;
        c.lifetimes[platform] = { ...c.lifetimes[platform], ...values };
      }
    }
    return sendJson(reply, 200, c);
  });
}
