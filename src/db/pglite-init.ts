// Creates a PGlite data directory, run as a child process: initdb's memory (~800 MB, never returned
// to the OS by a WASM instance) then leaves with the child instead of staying in the server.
// usage: pglite-init.ts <data directory> [template cache directory]
// With a cache directory, the new directory is also stored there as this PGlite build's template
// (src/db/pglite-template.ts), so the next fresh data directory on this machine skips initdb.
import { PGlite } from '@electric-sql/pglite';
import { baselineWasm } from './pglite-wasm.ts';
import { writeTemplate } from './pglite-template.ts';

const [dir, cacheDir] = process.argv.slice(2);
if (!dir) throw new Error('usage: pglite-init.ts <data directory> [template cache directory]');
baselineWasm();
const db = new PGlite(dir);
await db.waitReady;
if (cacheDir) {
  const tarball = await db.dumpDataDir('gzip');
  writeTemplate(cacheDir, new Uint8Array(await tarball.arrayBuffer()));
}
await db.close();
