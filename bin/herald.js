#!/usr/bin/env node
// Node >= 22.18 runs TypeScript sources directly (type stripping): no build step.
await import('../src/cli.ts');
