// Over a real socket: what happens before and while a body is read.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from '../../src/db/orm.ts';
import { media } from '../../src/db/schema-media.ts';
import { asUser, createHarness, type Harness } from '../helpers/harness.ts';
import { filesUnder, mediaDirs, multipart, png } from './helpers.ts';
import { until } from '../helpers/poll.ts';

let h: Harness;
let port: number;
beforeAll(async () => {
  h = await createHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as { port: number }).port;
});
afterAll(async () => h?.close());

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Reads until the server closes the socket or the head of a response has arrived and `ms` passed. */
function readResponse(s: Socket, ms = 3000): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    const done = () => resolve(data);
    s.on('data', (d) => (data += d.toString('latin1')));
    s.on('close', done);
    s.on('error', done);
    setTimeout(done, ms);
  });
}

const head = (headers: Record<string, string>, length: number) =>
  `POST /media/upload HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}Content-Length: ${length}\r\n\r\n`;

describe('request body limits over HTTP', () => {
  it('refuses a 3 GB Content-Length with 413 before any of the body is sent', async () => {
    const u = await h.signup();
    const s = await open();
    s.write(head({ ...asUser(u), 'content-type': 'multipart/form-data; boundary=x' }, 3_000_000_000));
    // Not a byte of the body is ever sent: an answer at all means Herald did not wait for it.
    const res = await readResponse(s);
    expect(res).toMatch(/^HTTP\/1\.1 413 /);
    expect(res.toLowerCase()).toContain('connection: close');
    expect(res).toContain('3000000000 bytes');
    s.destroy();
  });

  it('still answers 401 first to a caller without credentials', async () => {
    const s = await open();
    s.write(head({ 'content-type': 'multipart/form-data; boundary=x' }, 3_000_000_000));
    expect(await readResponse(s)).toMatch(/^HTTP\/1\.1 401 /);
    s.destroy();
  });

  it('a connection dropped mid-upload leaves no record, no temp file and no object', async () => {
    const u = await h.signup();
    const { payload, headers } = multipart([
      { name: 'media_type', value: 'image' },
      { name: 'media', filename: 'a.png', data: await png(600, 600) },
    ]);
    const s = await open();
    s.write(head({ ...asUser(u), ...headers }, payload.length));
    s.write(payload.subarray(0, Math.floor(payload.length / 2)));
    // Let the server start writing the file, then vanish.
    await until(() => filesUnder(mediaDirs(h).temp).length > 0).catch(() => {});
    s.destroy();
    await until(() => filesUnder(mediaDirs(h).temp).length === 0);
    expect(await h.ctx.database.db.select().from(media).where(eq(media.workspaceId, u.workspaceId))).toEqual([]);
    expect(filesUnder(mediaDirs(h).objects).filter((f) => f.includes(u.workspaceId))).toEqual([]);
  });
});
