import { defineConfig } from 'vitest/config';

// Herald keeps every time in UTC and renders in the workspace's zone: the process zone must not matter,
// so the tests run in an unusual one (+12:45/+13:45) unless TZ is already set. Test workers inherit it.
process.env.TZ ||= 'Pacific/Chatham';

// Suites that never open Herald's database: network adapters against their simulators, the simulators
// themselves, media probing and storage. They form the `nodb` project, which CI runs once; the `db`
// project is run on each database back end. test/helpers/harness.ts refuses to open a database in `nodb`.
const NO_DB = [
  'test/platforms/**/*.test.ts',
  'test/sandbox/**/*.test.ts',
  'test/media/**/*.test.ts',
  'test/foundation/scopes.test.ts',
  'test/publishing/media-refs.test.ts',
  'test/scheduling/chaos-seed.test.ts',
  'test/ai/builtin/**/*.test.ts',
  'test/oauth/config.test.ts',
  'test/agent/commands.test.ts',
  'test/foundation/pglite-template.test.ts',
  'test/web/**/*.test.ts',
  'test/foundation/docs-paths.test.ts',
  'test/webhooks/schedule.test.ts',
  'test/foundation/cli-help.test.ts',
  'test/deploy/files.test.ts',
  'test/backup/nightly.test.ts',
];

// Suites that need PostgreSQL by design (several Herald processes on one database; embedded PGlite admits one). The
// `db` project includes them only when DATABASE_URL is set, so the PostgreSQL run (.ci/run) runs them and the
// embedded run does not list them, rather than listing them as skipped.
const POSTGRES_ONLY = [
  'test/scale-out/**/*.test.ts',
  'test/backup/move.test.ts',
  'test/scheduling/chaos.test.ts',
  'test/scheduling/two-workers.test.ts',
];
// Suites whose every database is the embedded one whatever DATABASE_URL says (they start `herald serve` on a data
// directory, or open PGlite themselves): the embedded run runs them; the PostgreSQL run would only repeat them.
const EMBEDDED_ONLY = [
  'test/scheduling/embedded-chaos.test.ts',
  'test/backup/hold.test.ts',
  'test/foundation/cli.test.ts',
  'test/foundation/readme-walkthrough.test.ts',
];
const onPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');

export default defineConfig({
  test: {
    // Suites start real servers and databases; a loaded two-core machine needs room.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['test/helpers/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'db',
          include: ['test/**/*.test.ts'],
          exclude: onPostgres ? [...NO_DB, ...EMBEDDED_ONLY] : [...NO_DB, ...POSTGRES_ONLY],
        },
      },
      { extends: true, test: { name: 'nodb', include: NO_DB, env: { HERALD_TEST_NO_DATABASE: '1' } } },
    ],
  },
});
