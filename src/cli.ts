// `herald <command>`: the command line is src/cli/ (program.ts lists the commands).
//
// Node's module compile cache is switched on before anything else loads: a start after the first one reads
// the TypeScript sources already stripped of their types and V8's compiled code for them and for the
// dependencies, instead of stripping and compiling ~1,700 modules again (docs/performance.md). Node's own
// NODE_COMPILE_CACHE (where; default <tmpdir>/node-compile-cache) and NODE_DISABLE_COMPILE_CACHE=1 apply.
// A cache that cannot be written (read-only tmp) is skipped silently; entries are checked against the
// sources' contents, so an upgrade never runs stale code.
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./cli/main.ts');
