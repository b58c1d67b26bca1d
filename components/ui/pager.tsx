import { Button } from './button';

/**
 * Previous and Next under a table, with where the reader is ("Page 2", "Page 2 of 5"); shown
 * only while there is another page. A side with no page to go to is null; `busy` holds Next
 * while the page it would leave is still loading.
 */
export function Pager({
  label,
  previous,
  next,
  busy = false,
}: {
  label: string;
  previous: (() => void) | null;
  next: (() => void) | null;
  busy?: boolean;
}) {
  if (!previous && !next) return null;
  return (
    <nav className="flex items-center justify-end gap-2" aria-label="Pagination">
      <span className="text-sm text-slate-500">{label}</span>
      <Button variant="secondary" size="sm" disabled={!previous} onClick={() => previous?.()}>
        Previous
      </Button>
      <Button variant="secondary" size="sm" disabled={!next || busy} onClick={() => next?.()}>
        Next
      </Button>
    </nav>
  );
}
