import { t } from '../i18n/index.ts';
import { Empty } from '../ui/States.tsx';
import { PageHeader } from '../ui/PageHeader.tsx';

/** A page of the app not built yet. */
export function Placeholder({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Empty title={t.common.notBuilt} />
    </>
  );
}
