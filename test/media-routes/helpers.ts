// Fixtures and request builders shared by the media route suites.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Platform } from '../../src/auth/scopes.ts';
import type { Harness, TestUser } from '../helpers/harness.ts';
import { writeMkv, writeMp4 } from '../media/helpers/video-fixtures.ts';
import { makeCert, startServer, type Handler, type RunningServer } from '../media/helpers/test-server.ts';
import { lookupFrom } from '../helpers/lookup.ts';

export async function png(width = 64, height = 48, color = { r: 200, g: 30, b: 90 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

export async function jpeg(width = 80, height = 60): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 220 } } })
    .jpeg()
    .toBuffer();
}

async function viaTempFile(write: (path: string) => Promise<void>): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'herald-fixture-'));
  try {
    const path = join(dir, 'f');
    await write(path);
    return readFileSync(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const mp4 = (o: Parameters<typeof writeMp4>[1] = {}) => viaTempFile((p) => writeMp4(p, o));
export const webm = () => viaTempFile((p) => writeMkv(p, { docType: 'webm' }));

export type Part = { name: string; value: string } | { name: string; filename: string; data: Buffer; type?: string };

/** A multipart/form-data body, built by hand so tests control every byte (and can cut it short). */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----herald${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('data' in p) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(p.data, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function upload(h: Harness, headers: Record<string, string>, parts: Part[]) {
  const body = multipart(parts);
  return h.req({
    method: 'POST',
    url: '/media/upload',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

/** A connected account row, as the OAuth flow would leave it (no network involved). */
export async function connectAccount(
  h: Harness,
  u: TestUser,
  platform: Platform,
  accountId = `${platform}-acct-${u.userId.slice(0, 8)}`,
): Promise<string> {
  await h.ctx.connectionStore.upsert(
    u.workspaceId,
    platform,
    { id: accountId, name: `${platform} account`, destinations: [], slice: {} },
    { accessToken: 'test-token', refreshToken: null, expiresAt: null, refreshExpiresAt: null },
  );
  return accountId;
}

/** The path part of a public URL, for fastify.inject. */
export const storagePath = (publicUrl: string) => new URL(publicUrl).pathname;

/** Every regular file under a directory (recursively), for orphan checks. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

export const mediaDirs = (h: Harness) => ({
  objects: join(h.config.dataDir, 'media'),
  temp: join(h.config.dataDir, 'tmp', 'media'),
  chunks: join(h.config.dataDir, 'uploads'),
});

/**
 * A loopback HTTPS server answering as media.test, with the media fetch overrides that reach it (a
 * table resolver and its certificate); the harness must allow the host (HERALD_FETCH_ALLOW_HOSTS=media.test).
 */
export async function mediaHost(
  handler: Handler,
): Promise<{ server: RunningServer; base: string; fetch: { lookup: ReturnType<typeof lookupFrom>; ca: string } }> {
  const cert = makeCert(['media.test']);
  const server = await startServer(handler, cert);
  return {
    server,
    base: `https://media.test:${server.port}`,
    fetch: { lookup: lookupFrom({ 'media.test': ['127.0.0.1'] }), ca: cert.cert },
  };
}
