// Issue figures for the media library: a 1 GiB video uploaded in one multipart request (throughput
// against a plain write of the same bytes to the same disk, and the server's RSS growth), then the
// same file through the chunked API with 1 MiB chunks over 4 connections.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { writeMp4 } from '../test/media/helpers/video-fixtures.ts';
import { fmt, postJson, rssMiB, startHerald } from './lib.ts';

const GiB = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;
const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);

/** Writes `size` bytes from memory to a new file and flushes it, as media storage does. */
async function plainWrite(path: string, size: number, flush: boolean): Promise<number> {
  const block = randomBytes(MiB);
  const t0 = performance.now();
  const blocks = function* () {
    for (let left = size; left > 0; left -= MiB) yield left >= MiB ? block : block.subarray(0, left);
  };
  await pipeline(Readable.from(blocks()), createWriteStream(path, { flush, highWaterMark: MiB }));
  const ms = performance.now() - t0;
  rmSync(path, { force: true });
  return ms;
}

interface Res {
  status: number;
  body: string;
}

function send(
  url: string,
  headers: Record<string, string | number>,
  body: Readable | Buffer,
  agent?: Agent,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, ...(agent ? { agent } : {}) }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (data += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    if (Buffer.isBuffer(body)) req.end(body);
    else body.pipe(req);
  });
}

/** Samples the server's RSS until stopped; returns the peak in MiB. */
function sampleRss(pid: number): { stop: () => number } {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, rssMiB(pid));
    },
  };
}

function multipartHead(boundary: string, fields: Record<string, string>, fileField: string, filename: string): Buffer {
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return Buffer.from(parts.join(''));
}

async function signIn(url: string): Promise<Record<string, string>> {
  const session = await postJson<{ access_token: string }>(`${url}/auth/signup`, {
    email: 'bench@example.test',
    password: 'benchmark password',
  });
  const ws = (await (
    await fetch(`${url}/workspaces`, { headers: { authorization: `Bearer ${session.access_token}` } })
  ).json()) as { id: string }[];
  return { authorization: `Bearer ${session.access_token}`, 'x-workspace-id': ws[0]!.id };
}

/**
 * The server's RSS once start-up has settled (it starts at 700-800 MiB and falls to ~300 within a
 * minute): five readings a second apart within 4 MiB, or 60 s. Every server is measured from here.
 */
async function settledRss(pid: number): Promise<number> {
  const seen: number[] = [];
  for (let i = 0; i < 60; i++) {
    seen.push(rssMiB(pid));
    const last = seen.slice(-5);
    if (last.length === 5 && Math.max(...last) - Math.min(...last) < 4) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return seen.at(-1)!;
}

/** One multipart request carrying the whole file; the server's RSS before and at its peak. */
async function singleUpload(
  url: string,
  pid: number,
  auth: Record<string, string>,
  source: string,
  fileSize: number,
): Promise<{ ms: number; rssBefore: number; rssPeak: number }> {
  const rssBefore = await settledRss(pid);
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = multipartHead(boundary, { media_type: 'video' }, 'media', 'bench.mp4');
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Readable.from(
    (async function* () {
      yield head;
      for await (const chunk of createReadStream(source, { highWaterMark: MiB })) yield chunk as Buffer;
      yield tail;
    })(),
  );
  const sampler = sampleRss(pid);
  const t0 = performance.now();
  const res = await send(
    `${url}/media/upload`,
    {
      ...auth,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': head.length + fileSize + tail.length,
    },
    body,
  );
  const ms = performance.now() - t0;
  const rssPeak = sampler.stop();
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${res.body}`);
  return { ms, rssBefore, rssPeak };
}

/**
 * `unpaced`: the single upload again on a server with HERALD_MEDIA_GC_PACING=false, for what the pacing
 * buys (docs/performance.md, Upload); `chunked`: the chunked API's figures.
 */
export async function benchMedia(opts: { sizeBytes?: number; unpaced?: boolean; chunked?: boolean } = {}) {
  const size = opts.sizeBytes ?? GiB;
  console.log(`\n== Media (${fmt(size / MiB, 0)} MiB video)`);
  const dir = mkdtempSync(join(tmpdir(), 'herald-bench-media-'));
  const source = join(dir, 'video.mp4');
  // A valid MP4 (ftyp, mdat, moov at the end) whose media data is filler.
  await writeMp4(source, { mdatBytes: size - 2048, width: 1920, height: 1080, durationSec: 600 });
  const fileSize = statSync(source).size;
  const env = (name: string, extra: Record<string, string> = {}) => ({
    HERALD_DATA_DIR: join(dir, name),
    HERALD_MEDIA_MAX_VIDEO_BYTES: String(4 * GiB),
    ...extra,
  });
  let server = await startHerald(env('data'));
  try {
    const auth = await signIn(server.url);
    const pid = server.child.pid!;

    // Baseline in the same run, on the same disk (the data directory's filesystem); the flushed write
    // is repeated after the upload and averaged, since a shared disk's speed drifts.
    const flushedBefore = await plainWrite(join(dir, 'plain.bin'), fileSize, true);
    const plainMs = await plainWrite(join(dir, 'plain.bin'), fileSize, false);

    // 1. One multipart request.
    const paced = await singleUpload(server.url, pid, auth, source, fileSize);
    const flushedAfter = await plainWrite(join(dir, 'plain.bin'), fileSize, true);
    const plainRate = mbps(fileSize, (flushedBefore + flushedAfter) / 2);
    const line = (label: string, r: { ms: number; rssBefore: number; rssPeak: number }) => {
      const rate = mbps(fileSize, r.ms);
      console.log(
        `${label}: ${fmt(r.ms / 1000, 2)} s, ${fmt(rate, 0)} MB/s = ${fmt((rate / plainRate) * 100, 0)}% of the flushed plain write (target ≥ 50%); server RSS ${fmt(r.rssBefore, 0)} MiB before, peak ${fmt(r.rssPeak, 0)} MiB, growth ${fmt(r.rssPeak - r.rssBefore, 1)} MiB (target < 64 MiB)`,
      );
    };
    console.log(
      `load average ${loadavg()
        .map((l) => fmt(l, 2))
        .join(' ')} on ${availableParallelism()} CPUs`,
    );
    console.log(
      `plain write of the same bytes: ${fmt(plainRate, 0)} MB/s flushed (fsync, as storage does; ${fmt(mbps(fileSize, flushedBefore), 0)} before, ${fmt(mbps(fileSize, flushedAfter), 0)} after the upload), ${fmt(mbps(fileSize, plainMs), 0)} MB/s unflushed`,
    );
    line('single multipart upload (GC pacing on, the default)', paced);

    // 2. Chunked: init, 1 MiB chunks over 4 keep-alive connections, complete.
    if (opts.chunked !== false) await chunkedUpload(server.url, pid, auth, source, fileSize, paced.rssBefore);

    // 3. The single upload without GC pacing, on a fresh server of its own.
    if (opts.unpaced !== false) {
      await server.stop();
      server = await startHerald(env('data-unpaced', { HERALD_MEDIA_GC_PACING: 'false' }));
      const unpaced = await singleUpload(server.url, server.child.pid!, await signIn(server.url), source, fileSize);
      line('single multipart upload (HERALD_MEDIA_GC_PACING=false)', unpaced);
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function chunkedUpload(
  url: string,
  pid: number,
  auth: Record<string, string>,
  source: string,
  fileSize: number,
  rssBefore: number,
): Promise<void> {
  const chunks = Math.ceil(fileSize / MiB);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const c0 = performance.now();
  const init = await postJson<{ upload_id: string }>(
    `${url}/media/storage/init`,
    { filename: 'bench.mp4', file_size: fileSize, total_chunks: chunks, media_type: 'video' },
    auth,
  );
  const handle = await import('node:fs/promises').then((fs) => fs.open(source, 'r'));
  let next = 1;
  const chunkSampler = sampleRss(pid);
  const worker = async () => {
    for (let n = next++; n <= chunks; n = next++) {
      const length = Math.min(MiB, fileSize - (n - 1) * MiB);
      const data = Buffer.alloc(length);
      await handle.read(data, 0, length, (n - 1) * MiB);
      const b = `----chunk${n}`;
      const part = Buffer.concat([
        multipartHead(b, { upload_id: init.upload_id, chunk_number: String(n) }, 'file', 'blob'),
        data,
        Buffer.from(`\r\n--${b}--\r\n`),
      ]);
      const r = await send(
        `${url}/media/storage/chunk`,
        { ...auth, 'content-type': `multipart/form-data; boundary=${b}`, 'content-length': part.length },
        part,
        agent,
      );
      if (r.status !== 200) throw new Error(`chunk ${n}: ${r.status} ${r.body}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  const chunkMs = performance.now() - c0;
  await handle.close();
  const done = await send(
    `${url}/media/storage/complete`,
    { ...auth, 'content-type': 'application/json' },
    Buffer.from(JSON.stringify({ upload_id: init.upload_id })),
  );
  const totalMs = performance.now() - c0;
  const chunkPeak = chunkSampler.stop();
  agent.destroy();
  if (done.status !== 200) throw new Error(`complete failed: ${done.status} ${done.body}`);
  console.log(
    `chunked upload (${chunks} × 1 MiB, 4 connections): chunks ${fmt(chunkMs / 1000, 2)} s = ${fmt(chunks / (chunkMs / 1000), 0)} chunks/s, ${fmt(mbps(fileSize, chunkMs), 0)} MB/s; with complete (assemble, probe, store) ${fmt(totalMs / 1000, 2)} s = ${fmt(mbps(fileSize, totalMs), 0)} MB/s`,
  );
  console.log(
    `server RSS during the chunked upload: peak ${fmt(chunkPeak, 0)} MiB (growth over the first baseline ${fmt(chunkPeak - rssBefore, 1)} MiB)`,
  );
}
