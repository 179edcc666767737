// PGlite's WebAssembly stays on V8's baseline compiler (Liftoff).
//
// V8 compiles WebAssembly lazily with Liftoff and recompiles hot functions with its optimizing compiler in
// the background. One function of PGlite's postgres build (#2272 of pglite.wasm 0.5.x, ~105 KB of code, run
// by every query) takes that compiler 5–10 s of CPU and ~600 MB of memory, seconds after the database
// opens: RSS went from ~190 MB to ~690 MB and back, on a 2-core machine competing with start-up
// (docs/performance.md, "Start-up and memory"). Herald's statements spend their time around the postgres
// code, not in it: a mixed insert/select/update workload measured within noise with and without the
// optimizing tier (2.9–3.1 ms CPU per four statements either way). So the tier-up is off in a process that
// opens an embedded database, before PGlite's module is compiled; PostgreSQL (DATABASE_URL) never calls this.
//
// The flags are V8's, set at run time (as media/gc.ts does): a Node whose V8 ignored them would only bring
// the spike back, which `npm run bench startup` shows as peak RSS.
import { setFlagsFromString } from 'node:v8';

let done = false;

export function baselineWasm(): void {
  if (done) return;
  done = true;
  setFlagsFromString('--no-wasm-tier-up');
  setFlagsFromString('--no-wasm-dynamic-tiering');
}
