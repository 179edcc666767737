// Makes a PGlite data directory, run as a child process so that its memory leaves with the child: initdb's
// (~600 MB, never returned to the OS by a WASM instance) and that of unpacking a template (the tarball, its
// files and their copies in PGlite's filesystem: ~130 MB that the server kept as RSS when it unpacked in process).
// usage: pglite-init.ts <data directory> [template cache directory]
// With a cache directory, the directory is unpacked from this PGlite build's template when the cache has a
// trusted one (src/db/pglite-template.ts); otherwise initdb makes it and it is stored there as the template.
// Prints how the directory was made: `template` or `initdb`.
import { rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { baselineWasm } from './pglite-wasm.ts';
import { readTemplate, writeTemplate } from './pglite-template.ts';

const [dir, cacheDir] = process.argv.slice(2);
if (!dir) throw new Error('usage: pglite-init.ts <data directory> [template cache directory]');
baselineWasm();

async function fromTemplate(): Promise<boolean> {
  const template = cacheDir ? readTemplate(cacheDir) : undefined;
  if (!template) return false;
  try {
    const db = new PGlite(dir!, { loadDataDir: template });
    await db.waitReady;
    await db.close();
    return true;
  } catch {
    // A broken template: initdb instead, into an empty directory.
    rmSync(dir!, { recursive: true, force: true });
    return false;
  }
}

if (await fromTemplate()) {
  process.stdout.write('template\n');
} else {
  const db = new PGlite(dir);
  await db.waitReady;
  if (cacheDir) {
    const tarball = await db.dumpDataDir('gzip');
    writeTemplate(cacheDir, new Uint8Array(await tarball.arrayBuffer()));
  }
  await db.close();
  process.stdout.write('initdb\n');
}
