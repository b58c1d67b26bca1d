'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cn } from '@/components/ui/cn';

export interface SectionPage {
  href: string;
  label: string;
  /** Shown to owners and admins only (the server refuses the others anyway). */
  managers?: boolean;
}

/**
 * The pages of one project tab (Deals: board, table, submissions; Settings: general, webhook
 * log), under the project's tabs. A tab's layout renders it with its own pages.
 */
export function SectionNav({
  pages,
  manager,
  label,
}: {
  pages: readonly SectionPage[];
  /** The member may manage the project (owner or admin). */
  manager: boolean;
  /** What the pages are, for screen readers ("Deals pages"). */
  label: string;
}) {
  const pathname = usePathname();
  // The most specific page whose address starts the current one (a page's own sub-pages keep it current).
  const current = pages
    .filter((page) => pathname === page.href || pathname.startsWith(`${page.href}/`))
    .sort((a, b) => b.href.length - a.href.length)[0];
  return (
    <nav
      aria-label={label}
      className="flex shrink-0 items-center gap-4 overflow-x-auto whitespace-nowrap border-b border-slate-200 bg-white px-4"
    >
      {pages
        .filter((page) => manager || !page.managers)
        .map((page) => (
          <Link
            key={page.href}
            href={page.href}
            prefetch={false}
            aria-current={page === current ? 'page' : undefined}
            className={cn(
              '-mb-px border-b-2 py-2 text-sm',
              page === current
                ? 'border-brand-600 font-medium text-brand-700'
                : 'border-transparent text-slate-600 hover:text-slate-900',
            )}
          >
            {page.label}
          </Link>
        ))}
    </nav>
  );
}
