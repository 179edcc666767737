import { type ReactNode, useEffect } from 'react';
import { t } from '../i18n/index.ts';

/** The page's heading (and the document title); actions on the right. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · ${t.app.name}`;
  }, [title]);
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}
