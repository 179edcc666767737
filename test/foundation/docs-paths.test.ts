// Every repository file the documentation names must exist: README.md and docs/*.md are read, and each path-looking
// reference in them (in backticks, a fenced block, a link target or the prose) under src/, test/, bench/, bin/, docs/
// or .ci/ with an extension is looked up. Placeholders (`src/platforms/<net>/index.ts`) and globs (`test/**/*.test.ts`)
// are not paths to one file and are left alone. A bare document name (`publishing.md`) must be one of docs/*.md or the
// README: the documentation speaks of the project itself, not of notes kept elsewhere, and names no issue numbers.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** A repository path: one of the documented roots, then path characters, ending in an extension. */
const PATH =
  /(?<![\w./<>*-])(?:\.\/)?((?:src|test|bench|bin|docs|\.ci)\/[\w.-]+(?:\/[\w.-]+)*\.[A-Za-z0-9]+)(?![\w/<>*-])/g;

/** A document named without its folder: `publishing.md`, `DESIGN.md` (not part of a longer path or address). */
const BARE_DOC = /(?<![\w./-])([\w-]+\.md)\b(?![\w/-])/g;

/** Link targets that point into the repository, as paths from its root (a target relative to the document). */
function linkTargets(doc: string, markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => relative(ROOT, resolve(ROOT, dirname(doc), target)).replaceAll('\\', '/'));
}

/** Every repository path a document names. */
function referencedPaths(doc: string, markdown: string): string[] {
  const found = new Set<string>();
  for (const m of markdown.matchAll(PATH)) found.add(m[1]!);
  for (const target of linkTargets(doc, markdown)) {
    const m = [...target.matchAll(PATH)][0];
    if (m && m.index === 0 && m[0] === target) found.add(m[1]!);
  }
  return [...found];
}

/** Bare document names that are neither in docs/ nor at the root. */
function strayDocuments(markdown: string): string[] {
  const names = [...markdown.matchAll(BARE_DOC)].map((m) => m[1]!);
  return [...new Set(names)].filter((name) => !existsSync(join(ROOT, 'docs', name)) && !existsSync(join(ROOT, name)));
}

describe('paths named by the documentation', () => {
  it('finds the references it is meant to find', () => {
    const sample = [
      'See `src/tools/invoke.ts` and [the runner](../src/publishing/runner.ts#L1).',
      '```sh\nnode bin/herald.js serve\n```',
      '`src/platforms/<net>/index.ts`, `test/**/*.test.ts`, `publishing/plan.ts` and https://example.org/src/x.ts',
      'Run `npx vitest run ./test/tools/parity.test.ts` or read [networks](networks.md), as src/context.ts does.',
    ].join('\n');
    expect(referencedPaths('docs/x.md', sample).sort()).toEqual([
      'bin/herald.js',
      'docs/networks.md',
      'src/context.ts',
      'src/publishing/runner.ts',
      'src/tools/invoke.ts',
      'test/tools/parity.test.ts',
    ]);
  });

  it('tells a stray document name from one of the project', () => {
    expect(strayDocuments('See publishing.md, README.md, interface.md and docs/missing.md.')).toEqual(['interface.md']);
  });

  it.each(DOCS)('%s names only files that exist', (doc) => {
    const markdown = readFileSync(join(ROOT, doc), 'utf8');
    const missing = referencedPaths(doc, markdown).filter((path) => !existsSync(join(ROOT, path)));
    expect(missing, `${doc} names files that are not in the repository`).toEqual([]);
    expect(strayDocuments(markdown), `${doc} names documents kept outside the repository`).toEqual([]);
    const notes = [...markdown.matchAll(/\bcontract-gaps\b/gi)].map((m) => m[0]);
    expect(notes, `${doc} cites notes kept outside the repository`).toEqual([]);
    const issues = [...markdown.matchAll(/\bissues? #?\d+\b/gi)].map((m) => m[0]);
    expect(issues, `${doc} names issue numbers`).toEqual([]);
  });
});
