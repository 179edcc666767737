// Helpers of the end-to-end publishing suites (a sandbox harness, real adapters): what the simulators
// hold, and library media made from fixture files.
import { randomUUID } from 'node:crypto';
import { stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Harness, TestUser } from '../helpers/harness.ts';
import { writeMp4 } from '../media/helpers/video-fixtures.ts';

type SandboxState = Record<string, { posts: { id: string; text?: string }[] }>;

export function endToEnd(harness: () => Harness) {
  async function state(): Promise<SandboxState> {
    return (await (await fetch(`${harness().url}/sandbox/_state`)).json()) as SandboxState;
  }
  const postsOf = async (platform: string) => (await state())[platform]!.posts;

  /** A 1080×1080 (or given size) JPEG or a 1080×1920 12 s MP4 in the user's library; its media id. */
  async function media(
    u: TestUser,
    kind: 'jpeg' | 'mp4',
    opts: { width?: number; height?: number } = {},
  ): Promise<string> {
    const path = join(tmpdir(), `herald-e2e-${randomUUID()}.${kind}`);
    if (kind === 'jpeg') {
      await writeFile(
        path,
        await sharp({
          create: { width: opts.width ?? 1080, height: opts.height ?? 1080, channels: 3, background: '#3366aa' },
        })
          .jpeg()
          .toBuffer(),
      );
    } else {
      await writeMp4(path, {
        width: 1080,
        height: 1920,
        durationSec: 12,
        mdatBytes: 256 * 1024,
        audio: true,
        moovFirst: true,
      });
    }
    const row = await harness().ctx.media.add(
      { workspaceId: u.workspaceId, platform: null, platformUserId: null },
      { file: { path, size: (await stat(path)).size, filename: `f.${kind}` } },
      kind === 'mp4' ? 'video' : 'image',
      ['body', 'media'],
    );
    return row.id;
  }
  return { state, postsOf, media };
}
