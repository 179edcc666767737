// A fresh PGlite data directory from a template instead of initdb.
//
// initdb is most of a cold start: 8.5 s of CPU and a ~600 MB child process on the 2-core machine
// (docs/performance.md, "Start-up and memory"), and the data directory it makes is the same every time
// for one PGlite build. So the first initdb on a machine also writes that directory as a gzipped tarball
// (PGlite's own dumpDataDir) into a cache directory, and every later fresh data directory is unpacked
// from it (PGlite's loadDataDir): ~0.6 s instead. The tarball is keyed by the PGlite version; one made
// by another version is never read.
//
// The cache holds what becomes a database, so it is only trusted when it is this user's and nobody
// else can write it: the directory is made 0700 and a template that is not a regular file owned by this
// user with no group/other write bit is ignored (initdb runs as if there were none). Any failure to read
// or write the cache falls back to initdb; it never stops a start.
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';

/** The default cache directory: `$XDG_CACHE_HOME/herald`, else `~/.cache/herald`. */
export function defaultTemplateDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'herald');
}

let version: string | undefined;

/** The installed PGlite's version: templates are only valid for the build that made them. */
export function pgliteVersion(): string {
  if (version) return version;
  const main = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  // main is …/@electric-sql/pglite/dist/index.cjs: its package.json is one level up from dist.
  const pkg = JSON.parse(readFileSync(join(dirname(dirname(main)), 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  if (pkg.name !== '@electric-sql/pglite') throw new Error(`unexpected package next to PGlite: ${pkg.name}`);
  version = pkg.version;
  return version;
}

export function templatePath(cacheDir: string): string {
  return join(cacheDir, `pglite-${pgliteVersion()}-datadir.tar.gz`);
}

function safe(path: string, dir: boolean): boolean {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return false;
  const uid = process.getuid?.();
  if (dir ? !st.isDirectory() : !st.isFile()) return false;
  if (uid !== undefined && st.uid !== uid) return false;
  return (st.mode & 0o022) === 0;
}

/** The template for this PGlite build, or undefined when there is none that can be trusted. */
export function readTemplate(cacheDir: string): Blob | undefined {
  try {
    const file = templatePath(cacheDir);
    if (!safe(cacheDir, true) || !safe(file, false)) return undefined;
    return new Blob([readFileSync(file)]);
  } catch {
    return undefined;
  }
}

/** Stores a template atomically (temporary file, fsync, rename); false when the cache cannot be written. */
export function writeTemplate(cacheDir: string, tarball: Uint8Array): boolean {
  const file = templatePath(cacheDir);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    if (!safe(cacheDir, true)) return false;
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, tarball);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}
