// A list read page by page with the API's cursor (`next_cursor`, null at the end): the events feed, a webhook's
// deliveries.
import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';

export function useCursorPages<T extends { next_cursor: string | null }>(
  queryKey: QueryKey,
  fetchPage: (cursor: string | undefined) => Promise<T>,
) {
  return useInfiniteQuery({
    queryKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}
