// Publishing tests: real adapters for auth (against the sandbox) with a scripted publisher per network,
// so the orchestration (validation, ledger, credits, fan-out, idempotency) is tested on its own.
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { PLATFORMS, type Platform } from '../../src/auth/scopes.ts';
import { ADAPTERS } from '../../src/platforms/registry.ts';
import type { Publisher, PublishRequest, PublishOutcome } from '../../src/platforms/publishing.ts';
import type { AdapterFactory } from '../../src/platforms/types.ts';
import type { Harness, TestUser } from '../helpers/harness.ts';

export interface Script {
  calls: { platform: Platform; req: PublishRequest; journal: Record<string, string> }[];
  /** What each network does; default: publish at once. */
  behaviour: Partial<
    Record<
      Platform,
      (
        req: PublishRequest,
        journal: { steps: Readonly<Record<string, string>>; record(s: string, v: string): Promise<void> },
      ) => Promise<PublishOutcome>
    >
  >;
}

export function scriptedAdapters(script: Script): Partial<Record<Platform, AdapterFactory>> {
  return Object.fromEntries(
    PLATFORMS.map((p) => [
      p,
      ((deps) => {
        const real = ADAPTERS[p](deps);
        const publisher: Publisher = {
          async publish(_tokens, req, journal) {
            script.calls.push({ platform: p, req, journal: { ...journal.steps } });
            const custom = script.behaviour[p];
            if (custom) return custom(req, journal);
            const id = journal.steps.post_id ?? `${p}-${randomUUID().slice(0, 8)}`;
            await journal.record('post_id', id);
            return { state: 'published', postId: id, permalink: `https://${p}.example/p/${id}` };
          },
        };
        return { ...real, publisher };
      }) satisfies AdapterFactory,
    ]),
  );
}

export async function imageMedia(
  h: Harness,
  u: TestUser,
  opts: { format?: 'jpeg' | 'png'; width?: number; height?: number } = {},
): Promise<string> {
  const path = join(tmpdir(), `herald-img-${randomUUID()}.${opts.format ?? 'jpeg'}`);
  const img = sharp({
    create: { width: opts.width ?? 800, height: opts.height ?? 800, channels: 3, background: { r: 200, g: 80, b: 40 } },
  });
  await writeFile(path, await (opts.format === 'png' ? img.png() : img.jpeg()).toBuffer());
  const { size } = await import('node:fs/promises').then((fs) => fs.stat(path));
  const row = await h.ctx.media.add(
    { workspaceId: u.workspaceId, platform: null, platformUserId: null },
    { file: { path, size, filename: `photo.${opts.format ?? 'jpeg'}` } },
    'image',
    ['body', 'media'],
  );
  return row.id;
}
