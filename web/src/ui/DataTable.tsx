// A table of records: its caption for screen readers, its column headings, and the rows the caller renders; it
// scrolls sideways on a narrow screen instead of widening the page, or with `stack` becomes a list there (each row a
// block: its first cell on a line, the others wrapping beside each other).
import type { ReactNode } from 'react';

export interface DataTableProps {
  caption: string;
  /** Column headings; an empty string is an actions column, named by `actionsLabel` for screen readers. */
  columns: string[];
  actionsLabel?: string;
  children: ReactNode;
  footer?: ReactNode;
  /** On a narrow screen, show each row as a block instead of scrolling sideways (a few short columns). */
  stack?: boolean;
}

export function DataTable({ caption, columns, actionsLabel, children, footer, stack }: DataTableProps) {
  return (
    // A table wider than the screen scrolls inside this box, which keyboard users must be able to focus to scroll.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs keyboard access (WCAG 2.1.1)
    <section className="table-wrap" aria-label={caption} tabIndex={0}>
      <table className={stack ? 'table table-stack' : 'table'}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns
              <th scope="col" key={i}>
                {c || <span className="visually-hidden">{actionsLabel}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
        {footer && <tfoot>{footer}</tfoot>}
      </table>
    </section>
  );
}
