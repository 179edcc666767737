// Coverage of the networks' documented errors. For every network listed as finished: each documented code names a
// sandbox fault that exists (or says why it cannot be simulated), every documented-error fault of its simulator is
// some code's, the network has its table-driven mapping test, and docs/networks.md shows its table as the data says.
// Networks whose data is not complete yet are listed by name in PENDING_NETWORKS: nothing is skipped silently.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLUESKY_DOCUMENTED_ERRORS } from '../../../src/platforms/bluesky/documented-errors.ts';
import { documentedTable, type DocumentedError } from '../../../src/platforms/documented-errors.ts';
import { INSTAGRAM_DOCUMENTED_ERRORS } from '../../../src/platforms/instagram/documented-errors.ts';
import { THREADS_DOCUMENTED_ERRORS } from '../../../src/platforms/threads/documented-errors.ts';
import { TIKTOK_DOCUMENTED_ERRORS } from '../../../src/platforms/tiktok/documented-errors.ts';
import { YOUTUBE_DOCUMENTED_ERRORS } from '../../../src/platforms/youtube/documented-errors.ts';
import { FACEBOOK_DOCUMENTED_ERRORS } from '../../../src/platforms/facebook/documented-errors.ts';
import { LINKEDIN_DOCUMENTED_ERRORS } from '../../../src/platforms/linkedin/documented-errors.ts';
import { PINTEREST_DOCUMENTED_ERRORS } from '../../../src/platforms/pinterest/documented-errors.ts';
import { PLATFORMS, type Platform } from '../../../src/platforms/slugs.ts';
import { BLUESKY_ERRORS } from '../../../src/sandbox/bluesky/errors.ts';
import type { ErrorCatalogue } from '../../../src/sandbox/core/documented.ts';
import { INSTAGRAM_ERRORS } from '../../../src/sandbox/instagram/errors.ts';
import { LINKEDIN_ERRORS } from '../../../src/sandbox/linkedin/documented-errors.ts';
import { PINTEREST_ERRORS } from '../../../src/sandbox/pinterest/errors.ts';
import { THREADS_ERRORS } from '../../../src/sandbox/threads/errors.ts';
import { TIKTOK_ERRORS } from '../../../src/sandbox/tiktok/errors.ts';
import { YOUTUBE_ERRORS } from '../../../src/sandbox/youtube/documented.ts';
import { FACEBOOK_ERRORS } from '../../../src/sandbox/facebook/errors.ts';
import { startSandbox, type TestSandbox } from '../../helpers/sandbox.ts';

/** Networks whose every documented code is simulated, mapped and tested: table, sandbox catalogue, test file. */
const DOCUMENTED_NETWORKS: Partial<
  Record<Platform, { table: readonly DocumentedError[]; tableName: string; catalogue: ErrorCatalogue }>
> = {
  instagram: {
    table: INSTAGRAM_DOCUMENTED_ERRORS,
    tableName: 'INSTAGRAM_DOCUMENTED_ERRORS',
    catalogue: INSTAGRAM_ERRORS,
  },
  threads: { table: THREADS_DOCUMENTED_ERRORS, tableName: 'THREADS_DOCUMENTED_ERRORS', catalogue: THREADS_ERRORS },
  tiktok: { table: TIKTOK_DOCUMENTED_ERRORS, tableName: 'TIKTOK_DOCUMENTED_ERRORS', catalogue: TIKTOK_ERRORS },
  bluesky: { table: BLUESKY_DOCUMENTED_ERRORS, tableName: 'BLUESKY_DOCUMENTED_ERRORS', catalogue: BLUESKY_ERRORS },
  linkedin: { table: LINKEDIN_DOCUMENTED_ERRORS, tableName: 'LINKEDIN_DOCUMENTED_ERRORS', catalogue: LINKEDIN_ERRORS },
  pinterest: {
    table: PINTEREST_DOCUMENTED_ERRORS,
    tableName: 'PINTEREST_DOCUMENTED_ERRORS',
    catalogue: PINTEREST_ERRORS,
  },
  facebook: { table: FACEBOOK_DOCUMENTED_ERRORS, tableName: 'FACEBOOK_DOCUMENTED_ERRORS', catalogue: FACEBOOK_ERRORS },
  youtube: { table: YOUTUBE_DOCUMENTED_ERRORS, tableName: 'YOUTUBE_DOCUMENTED_ERRORS', catalogue: YOUTUBE_ERRORS },
};

/** Networks whose documented errors are not all simulated, mapped and tested yet (see the report / docs/networks.md). */
const PENDING_NETWORKS: readonly Platform[] = [];

const DOCS = new URL('../../../docs/networks.md', import.meta.url);

let sb: TestSandbox;
let listed: { operations: Record<string, string[]>; errors: Record<string, string[]> };
beforeAll(async () => {
  sb = await startSandbox();
  listed = (await (await sb.control('GET', '_faults')).json()) as typeof listed;
});
afterAll(() => sb.close());

describe('documented errors: coverage', () => {
  it('lists every network once, as documented or pending', () => {
    const finished = Object.keys(DOCUMENTED_NETWORKS);
    expect([...finished, ...PENDING_NETWORKS].sort()).toEqual([...PLATFORMS].sort());
    expect(finished.filter((p) => PENDING_NETWORKS.includes(p as Platform))).toEqual([]);
  });

  for (const [platform, { table, tableName, catalogue }] of Object.entries(DOCUMENTED_NETWORKS)) {
    describe(platform, () => {
      it('names, for each code, a sandbox fault that exists or why it cannot be simulated', () => {
        expect(new Set(table.map((d) => d.code)).size, 'codes are unique').toBe(table.length);
        for (const d of table) {
          const s = d.simulated;
          if ('operation' in s) {
            expect(listed.operations[platform], `${d.code}: operation`).toContain(s.operation);
            if (s.fault === 'error') expect(listed.errors[platform], `${d.code}: fault`).toContain(s.error);
            else expect(s.error, d.code).toBeUndefined();
          } else {
            expect(s.reason.length, `${d.code}: reason`).toBeGreaterThan(10);
          }
        }
      });

      it('documents every documented-error fault its simulator has', () => {
        const used = new Set(
          table.flatMap((d) => ('error' in d.simulated && d.simulated.error ? [d.simulated.error] : [])),
        );
        expect(Object.keys(catalogue).filter((name) => !used.has(name))).toEqual([]);
      });

      it('has the table-driven mapping test that runs every code', () => {
        const source = readFileSync(new URL(`./${platform}.test.ts`, import.meta.url), 'utf8');
        expect(source).toContain('documentedErrorTests(');
        expect(source).toContain(`table: ${tableName}`);
      });

      it('is shown in docs/networks.md as the data says', () => {
        const expected = documentedTable(platform as Platform, table);
        const docs = readFileSync(DOCS, 'utf8');
        const start = docs.indexOf(`<!-- documented-errors:${platform} `);
        const endMark = `<!-- /documented-errors:${platform} -->`;
        const end = docs.indexOf(endMark);
        // UPDATE_NETWORK_DOCS=1 rewrites the block from the data (the table must already have its markers).
        if (process.env.UPDATE_NETWORK_DOCS === '1' && start >= 0 && end > start) {
          writeFileSync(DOCS, docs.slice(0, start) + expected + docs.slice(end + endMark.length));
          return;
        }
        expect(start, `docs/networks.md has no documented-errors:${platform} block`).toBeGreaterThanOrEqual(0);
        expect(docs.slice(start, end + endMark.length)).toBe(expected);
      });
    });
  }
});
