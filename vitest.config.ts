import { defineConfig } from 'vitest/config';

// Herald keeps every time in UTC and renders in the workspace's zone: the process zone must not matter,
// so the tests run in an unusual one (+12:45/+13:45) unless TZ is already set. Test workers inherit it.
process.env.TZ ||= 'Pacific/Chatham';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Suites start real servers and databases; a loaded two-core machine needs room.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
