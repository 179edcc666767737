// The running server's side of an online backup of the embedded database (src/db/snapshot-hold.ts), and the
// backup's (src/cli/backup/hold.ts): while held, the process's queries wait; the hold ends when the backup lets go,
// disconnects, outlasts the limit or the server closes; only the data directory's user can reach the socket.
// PGlite on a data directory whatever DATABASE_URL says: the hold exists only for the embedded database.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackup } from '../../src/cli/backup/backup.ts';
import { askToHold } from '../../src/cli/backup/hold.ts';
import { loadConfig } from '../../src/config.ts';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { holdSocketPath } from '../../src/db/snapshot-hold.ts';
import { lockByAnotherProcess } from './helpers.ts';

const LIMIT_MS = 3000;
let dataDir: string;
let database: Database;

const open = async () => {
  const config = loadConfig({ HERALD_DATA_DIR: dataDir, HERALD_LOG_LEVEL: 'silent' });
  return openDatabase({ dataDir, templateDir: config.pgliteTemplateDir, backupHoldLimitMs: LIMIT_MS });
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'herald-hold-test-'));
  database = await open();
  await database.pglite!.exec('create table notes (body text)');
}, 120_000);

afterAll(async () => {
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** An insert through the server's own connection, and whether it has finished yet. */
function write(body: string) {
  const state = { done: false };
  const promise = database.pglite!.query('insert into notes values ($1)', [body]).then(() => {
    state.done = true;
  });
  return { state, promise };
}

const settle = () => new Promise((r) => setTimeout(r, 200));
const count = async () =>
  (await database.pglite!.query<{ n: number }>('select count(*)::int as n from notes')).rows[0]!.n;

describe('the hold of a running embedded database', () => {
  it('listens on a socket only the data directory’s user can reach', () => {
    const path = holdSocketPath(dataDir);
    expect(database.backupSocket).toBe(path);
    expect(statSync(join(dataDir, 'run')).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('holds the process’s writes until the backup lets go, with the facts of that instant', async () => {
    await database.pglite!.query(`insert into notes values ('before')`);
    const held = (await askToHold(database.backupSocket!))!;
    expect(held.facts.tables).toEqual({ notes: 1 });
    expect(held.facts.schemaVersion).toBe(0);
    expect(held.facts.serverMajor).toBeGreaterThanOrEqual(15);
    const during = write('during');
    await settle();
    expect(during.state.done).toBe(false);
    expect(await held.release()).toBeTypeOf('number');
    await during.promise;
    expect(await count()).toBe(2);
  });

  it('lets go when the backup disconnects', async () => {
    const held = (await askToHold(database.backupSocket!))!;
    const during = write('after a disconnect');
    held.abandon();
    await during.promise;
    expect(await count()).toBe(3);
  });

  it('lets go after its limit, and the backup then fails rather than vouch for its copy', async () => {
    const held = (await askToHold(database.backupSocket!))!;
    const during = write('after the limit');
    await during.promise; // the limit (3 s) ends the hold by itself
    await expect(held.release()).rejects.toThrow(/let go of its database after 3 s.*no backup was written/s);
    expect(await count()).toBe(4);
  });

  it('answers a request it does not know with an error, holding nothing', async () => {
    const sock = connect(database.backupSocket!);
    const lines = createInterface({ input: sock })[Symbol.asyncIterator]();
    sock.write('{"op":"release"}\n');
    const answer = JSON.parse((await lines.next()).value as string) as { error?: string };
    expect(answer.error).toMatch(/unexpected request/);
    sock.destroy();
    await write('not held').promise;
  });

  it('lets go when the server closes; a closed server no longer answers and the backup takes the directory', async () => {
    const held = (await askToHold(database.backupSocket!))!;
    await database.close();
    await expect(held.release()).rejects.toThrow(/before the copy was done.*stopping/s);
    expect(await askToHold(holdSocketPath(dataDir))).toBeUndefined();
    database = await open();
    expect(await count()).toBe(5);
  });
});

describe('an embedded database held by a process that does not answer backups', () => {
  it('is refused, saying how (a restore, a db move or an older Herald holds it), and leaves no archive', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'herald-hold-busy-'));
    try {
      const config = loadConfig({ HERALD_DATA_DIR: dir, HERALD_LOG_LEVEL: 'silent' });
      const db = await openDatabase({ dataDir: dir, templateDir: config.pgliteTemplateDir });
      await db.close();
      lockByAnotherProcess(config);
      const out = join(dir, 'busy.tar.gz');
      await expect(runBackup(config, { out })).rejects.toThrow(/does not answer backups.*herald backup/s);
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
