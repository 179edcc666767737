// Fresh PGlite data directories from the template cache (src/db/pglite-template.ts): the first one is
// made by initdb and stored as the template, the next ones are unpacked from it; an untrusted or broken
// template is never used. Embedded-database only, so it runs once (the nodb project).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { readTemplate, templatePath, writeTemplate } from '../../src/db/pglite-template.ts';
import { loadConfig } from '../../src/config.ts';

const root = mkdtempSync(join(tmpdir(), 'herald-template-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function open(name: string, templateDir: string | undefined): Promise<Database> {
  return openDatabase({ dataDir: join(root, name), templateDir });
}

async function usable(db: Database): Promise<number> {
  await db.migrate();
  const { applied, shipped } = await db.migrationStatus();
  expect(applied).toBe(shipped);
  const res = (await db.pglite!.query<{ n: number }>('select count(*)::int as n from workspaces')).rows[0]!.n;
  await db.close();
  return res;
}

describe('PGlite data directory template', () => {
  const cache = join(root, 'cache');

  it('the first fresh directory runs initdb and stores the template; the next is unpacked from it', async () => {
    const first = await open('a', cache);
    expect(first.pgliteDir).toBe('initdb');
    expect(await usable(first)).toBe(0);
    const file = templatePath(cache);
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(cache)).toEqual([file.split('/').pop()]);

    const second = await open('b', cache);
    expect(second.pgliteDir).toBe('template');
    expect(await usable(second)).toBe(0);
    // The marker of a directory being made is gone once it is complete.
    expect(existsSync(join(root, 'b', 'pglite.incomplete'))).toBe(false);

    const again = await open('b', cache);
    expect(again.pgliteDir).toBe('existing');
    await again.close();
  });

  it('a template or a cache directory that others can write is not read, nor written into', () => {
    const dir = join(root, 'loose');
    expect(writeTemplate(dir, new Uint8Array([1, 2, 3]))).toBe(true);
    expect(readTemplate(dir)).toBeInstanceOf(Blob);
    chmodSync(templatePath(dir), 0o666);
    expect(readTemplate(dir)).toBeUndefined();
    chmodSync(templatePath(dir), 0o600);
    chmodSync(dir, 0o777);
    expect(readTemplate(dir)).toBeUndefined();
    expect(writeTemplate(dir, new Uint8Array([1]))).toBe(false);
  });

  it('a broken template falls back to initdb; a directory a dead start left half-made is made again', async () => {
    const dir = join(root, 'broken');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(templatePath(dir), 'not a tarball', { mode: 0o600 });
    // What a start that died while making its directory leaves: the marker, and a directory that may even
    // have its PG_VERSION already.
    mkdirSync(join(root, 'c', 'pglite', 'base'), { recursive: true });
    writeFileSync(join(root, 'c', 'pglite', 'PG_VERSION'), '17\n');
    writeFileSync(join(root, 'c', 'pglite.incomplete'), '');
    const db = await open('c', dir);
    expect(db.pgliteDir).toBe('initdb');
    expect(await usable(db)).toBe(0);
    expect(existsSync(join(root, 'c', 'pglite.incomplete'))).toBe(false);
    // Without the marker a directory with PG_VERSION is a database and is never made again.
    const again = await open('c', dir);
    expect(again.pgliteDir).toBe('existing');
    await again.close();
  });

  it('HERALD_PGLITE_TEMPLATE_DIR: a directory of its own, off, or the user cache by default', () => {
    expect(loadConfig({ HERALD_PGLITE_TEMPLATE_DIR: '/srv/herald-cache' }).pgliteTemplateDir).toBe('/srv/herald-cache');
    expect(loadConfig({ HERALD_PGLITE_TEMPLATE_DIR: 'off' }).pgliteTemplateDir).toBeUndefined();
    expect(loadConfig({ XDG_CACHE_HOME: '/var/cache/u' }).pgliteTemplateDir).toBe('/var/cache/u/herald');
  });
});
