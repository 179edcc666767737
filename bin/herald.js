#!/usr/bin/env node
// Node >= 22.18 runs TypeScript sources directly (type stripping): no build step; package.json asks for 22.19 (undici). An older Node gets one
// line saying so, before any .ts file is loaded (bin/check-node.js).
import { nodeVersionProblem } from './check-node.js';

const problem = nodeVersionProblem(process.version);
if (problem) {
  console.error(problem);
  process.exit(1);
}
await import('../src/cli.ts');
