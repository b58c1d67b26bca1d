import { Button } from './button';

/** "Show more" under a list read page by page (an infinite query): shown while there is a next page. */
export function ShowMore({
  list,
  label,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  label: string;
}) {
  if (!list.hasNextPage) return null;
  return (
    <div className="mt-3 text-center">
      <Button
        variant="secondary"
        size="sm"
        disabled={list.isFetchingNextPage}
        onClick={() => list.fetchNextPage()}
      >
        {label}
      </Button>
    </div>
  );
}
