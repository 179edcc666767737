import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from '../../web/src/pages/agent/markdown.ts';

describe("the agent's markdown", () => {
  it('reads bold, code, emphasis and https links; other text stays text', () => {
    expect(parseInline('**Waiting** for `publish`, see [the post](https://x.test/p) *now* <b>x</b>')).toEqual([
      { kind: 'strong', text: 'Waiting' },
      { kind: 'text', text: ' for ' },
      { kind: 'code', text: 'publish' },
      { kind: 'text', text: ', see ' },
      { kind: 'link', text: 'the post', href: 'https://x.test/p' },
      { kind: 'text', text: ' ' },
      { kind: 'em', text: 'now' },
      { kind: 'text', text: ' <b>x</b>' },
    ]);
    expect(parseInline('[x](javascript:alert(1))')).toEqual([{ kind: 'text', text: '[x](javascript:alert(1))' }]);
  });

  it('reads paragraphs, GFM tables, lists, headings and code blocks', () => {
    const blocks = parseMarkdown(
      [
        '**Connected accounts** (1)',
        '',
        '| Network | Name |',
        '| --- | --- |',
        '| Bluesky | ann.sandbox |',
        '',
        '## Next',
        '- one',
        '- two',
        '1. first',
        '```',
        'raw | text',
        '```',
      ].join('\n'),
    );
    expect(blocks.map((b) => b.kind)).toEqual(['paragraph', 'table', 'heading', 'list', 'list', 'code']);
    expect(blocks[1]).toEqual({
      kind: 'table',
      head: [[{ kind: 'text', text: 'Network' }], [{ kind: 'text', text: 'Name' }]],
      rows: [[[{ kind: 'text', text: 'Bluesky' }], [{ kind: 'text', text: 'ann.sandbox' }]]],
    });
    expect(blocks[3]).toMatchObject({ kind: 'list', ordered: false, items: [[{ text: 'one' }], [{ text: 'two' }]] });
    expect(blocks[4]).toMatchObject({ kind: 'list', ordered: true });
    expect(blocks[5]).toEqual({ kind: 'code', text: 'raw | text' });
  });
});
