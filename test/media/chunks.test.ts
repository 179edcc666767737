import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleChunks, ChunkAssemblyError } from '../../src/media/chunks.ts';

let dir: string;
const parts = [Buffer.alloc(100_000, 1), Buffer.from('middle'), Buffer.alloc(70_000, 3)];
let paths: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-chunks-'));
  paths = await Promise.all(
    parts.map(async (data, i) => {
      const path = join(dir, `chunk-${i}`);
      await writeFile(path, data);
      return path;
    }),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('assembleChunks', () => {
  it('streams the chunks in the given order', async () => {
    expect((await buffer(assembleChunks(paths))).equals(Buffer.concat(parts))).toBe(true);
    const reversed = [...paths].reverse();
    expect((await buffer(assembleChunks(reversed))).equals(Buffer.concat([...parts].reverse()))).toBe(true);
  });

  it('checks the total size when told what to expect', async () => {
    const total = parts.reduce((n, p) => n + p.length, 0);
    expect((await buffer(assembleChunks(paths, { expectedBytes: total }))).length).toBe(total);
    await expect(buffer(assembleChunks(paths, { expectedBytes: total + 1 }))).rejects.toBeInstanceOf(
      ChunkAssemblyError,
    );
    await expect(buffer(assembleChunks(paths, { expectedBytes: 1000 }))).rejects.toBeInstanceOf(ChunkAssemblyError);
  });

  it('fails on a missing chunk', async () => {
    await expect(buffer(assembleChunks([paths[0] ?? '', join(dir, 'missing')]))).rejects.toThrow(/chunk 1/);
  });

  it('refuses an empty list', () => {
    expect(() => assembleChunks([])).toThrow(ChunkAssemblyError);
  });
});
