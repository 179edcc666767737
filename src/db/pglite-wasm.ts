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
//
// The price is steady-state speed: `npm run bench publishing` on an idle machine, same session, with and without
// the tier-up: one-network posts p50 20 vs 12 ms, four networks 45 vs 31 ms, 81 vs 95 posts/s at 10 connections.
// HERALD_PGLITE_WASM_TIERUP=1 keeps V8's optimizing tier for servers with the memory to spare for the spike
// (docs/configuration.md); the initdb child inherits the setting.
import { setFlagsFromString } from 'node:v8';

let done = false;

export function baselineWasm(): void {
  if (done) return;
  done = true;
  if (process.env.HERALD_PGLITE_WASM_TIERUP === '1') return;
  setFlagsFromString('--no-wasm-tier-up');
  setFlagsFromString('--no-wasm-dynamic-tiering');
}
