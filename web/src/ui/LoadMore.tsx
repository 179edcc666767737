// The foot of a list read page by page: a button for the next page while there is one, else `done` (if given), and
// the error of the last page asked for.
import { t } from '../i18n/index.ts';
import { Button } from './Button.tsx';
import { ErrorText } from './States.tsx';

interface Pages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  fetchNextPage: () => unknown;
}

export function LoadMore({ pages, done }: { pages: Pages; done?: string }) {
  return (
    <>
      <div className="row list-more">
        {pages.hasNextPage ? (
          <Button busy={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
            {t.common.loadMore}
          </Button>
        ) : (
          done && <p className="muted">{done}</p>
        )}
      </div>
      <ErrorText error={pages.isFetchNextPageError ? pages.error : null} />
    </>
  );
}
