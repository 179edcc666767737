// Renders the agent's markdown (markdown.ts) as React elements; links open outside the app.
import { Fragment } from 'react';
import { t } from '../../i18n/index.ts';
import { type Inline, parseMarkdown } from './markdown.ts';

function Inlines({ parts }: { parts: Inline[] }) {
  return (
    <>
      {parts.map((p, i) => {
        const key = `${i}-${p.kind}`;
        if (p.kind === 'strong') return <strong key={key}>{p.text}</strong>;
        if (p.kind === 'em') return <em key={key}>{p.text}</em>;
        if (p.kind === 'code') return <code key={key}>{p.text}</code>;
        if (p.kind === 'link')
          return (
            <a key={key} href={p.href} target="_blank" rel="noreferrer">
              {p.text}
            </a>
          );
        return <Fragment key={key}>{p.text}</Fragment>;
      })}
    </>
  );
}

export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      {parseMarkdown(text).map((b, i) => {
        const key = `${i}-${b.kind}`;
        switch (b.kind) {
          case 'paragraph':
            return (
              <p key={key}>
                <Inlines parts={b.inline} />
              </p>
            );
          case 'heading':
            return (
              <p key={key} className="markdown-heading">
                <strong>
                  <Inlines parts={b.inline} />
                </strong>
              </p>
            );
          case 'code':
            return (
              <pre key={key}>
                <code>{b.text}</code>
              </pre>
            );
          case 'list': {
            const items = b.items.map((item, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a rendered answer never changes
              <li key={j}>
                <Inlines parts={item} />
              </li>
            ));
            return b.ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>;
          }
          case 'table':
            return (
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs keyboard access (WCAG 2.1.1)
              <section key={key} className="table-wrap" aria-label={t.agent.table} tabIndex={0}>
                <table className="table">
                  <thead>
                    <tr>
                      {b.head.map((c, j) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: a rendered answer never changes
                        <th key={j} scope="col">
                          <Inlines parts={c} />
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {b.rows.map((r, j) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a rendered answer never changes
                      <tr key={j}>
                        {r.map((c, k) => (
                          // biome-ignore lint/suspicious/noArrayIndexKey: a rendered answer never changes
                          <td key={k}>
                            <Inlines parts={c} />
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            );
        }
        return null;
      })}
    </div>
  );
}
