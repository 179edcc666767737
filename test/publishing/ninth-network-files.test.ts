// The files a new network touches, as docs/architecture.md "Adding a network" lists them, held to the source: the
// files that name every built-in network are exactly the documented ones, and no file outside the networks' own
// folders (src/platforms, src/sandbox) lists networks or quotes a network's slug in code.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NETWORKS } from '../../src/platforms/registry.ts';

const root = join(import.meta.dirname, '../..');
const slugs = NETWORKS.map((n) => n.slug);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sources(path) : e.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}
const files = sources(join(root, 'src')).map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
const named = (text: string) => slugs.filter((s) => new RegExp(`\\b${s}\\b`, 'i').test(text));
const outsideNetworks = files.filter((f) => !/^src\/(platforms|sandbox)\//.test(f.path));

/** The "Adding a network" section: its stated number of existing files, and the files its list names. */
function documented(): { count: number; paths: string[] } {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const section = doc.slice(
    doc.indexOf('## Adding a network'),
    doc.indexOf('\n## ', doc.indexOf('## Adding a network') + 1),
  );
  const count = Number(/a line in each of (\d+) existing files/.exec(section)?.[1]);
  const paths = [...section.matchAll(/^- `(src\/[^`]+\.ts)`:/gm)].map((m) => m[1]!);
  return { count, paths };
}

describe('adding a network touches the files docs/architecture.md lists', () => {
  it('the files naming every built-in network are exactly the documented ones, as many as it says', () => {
    const { count, paths } = documented();
    expect(paths).toHaveLength(count);
    const listing = files.filter((f) => named(f.text).length === slugs.length).map((f) => f.path);
    expect(listing.sort()).toEqual([...paths].sort());
  });

  it('no file outside the networks’ folders lists networks (five or more by name, comments included)', () => {
    const lists = outsideNetworks
      .filter((f) => named(f.text).length >= 5)
      .map((f) => `${f.path}: ${named(f.text).join(', ')}`);
    expect(lists).toEqual([]);
  });

  it('no file outside the networks’ folders quotes a network’s slug in code (JSON examples in descriptions aside)', () => {
    const quoted = new RegExp(`(['\`])(${slugs.join('|')})\\1|"(${slugs.join('|')})"`, 'g');
    const hits = outsideNetworks.flatMap((f) =>
      f.text.split('\n').flatMap((line, i) => {
        const found = [...line.matchAll(quoted)].filter((m) => m[1] || !/[[{]"/.test(line));
        return found.length ? [`${f.path}:${i + 1}: ${line.trim()}`] : [];
      }),
    );
    expect(hits).toEqual([]);
  });
});
