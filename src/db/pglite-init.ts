// Creates a PGlite data directory, run as a child process: initdb's memory (~800 MB, never returned
// to the OS by a WASM instance) then leaves with the child instead of staying in the server.
import { PGlite } from '@electric-sql/pglite';
import { baselineWasm } from './pglite-wasm.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: pglite-init.ts <data directory>');
baselineWasm();
const db = new PGlite(dir);
await db.waitReady;
await db.close();
