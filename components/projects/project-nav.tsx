'use client';

import { ChevronDown } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { type ReactNode, useId, useState } from 'react';
import { cn } from '@/components/ui/cn';
import { canManageProject, type MemberRole } from '@/lib/team/member-rules';

/** The id of the nav row's slot a page puts its own controls into (a portal). */
export const PROJECT_NAV_SLOT = 'project-nav-slot';

const MANAGERS_ONLY = "Only the project's owners and admins can open this.";

export function ProjectNav({ projectId, name, role }: { projectId: number; name: string; role: MemberRole }) {
  const pathname = usePathname();
  const base = `/projects/${projectId}`;
  const tabs = [
    { href: base, label: 'Bot' },
    { href: `${base}/inbox`, label: 'Conversations' },
    { href: `${base}/deals`, label: 'Deals' },
    { href: `${base}/clients`, label: 'Clients' },
    { href: `${base}/broadcasts`, label: 'Broadcasts' },
    { href: `${base}/channels`, label: 'Channels' },
    { href: `${base}/knowledge`, label: 'Knowledge' },
    { href: `${base}/settings`, label: 'Settings', managers: true },
    { href: `${base}/api-keys`, label: 'API keys', managers: true },
    { href: `${base}/team`, label: 'Team', managers: true },
  ];
  const manager = canManageProject(role);
  // A tab's own pages (a client's profile under Clients) keep it current.
  const isCurrent = (href: string) => pathname === href || (href !== base && pathname.startsWith(`${href}/`));
  const currentTab = tabs.find((tab) => isCurrent(tab.href));
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const links = tabs.map((tab) => {
    if (tab.managers && !manager)
      return (
        // Operators see what exists, and why it is not theirs to open.
        <span
          key={tab.href}
          aria-disabled="true"
          title={MANAGERS_ONLY}
          className="cursor-not-allowed rounded-md px-3 py-1.5 text-sm text-slate-400"
        >
          {tab.label}
        </span>
      );
    return (
      <TabLink
        key={tab.href}
        href={tab.href}
        current={isCurrent(tab.href)}
        onFollow={() => setMenuOpen(false)}
      >
        {tab.label}
      </TabLink>
    );
  });
  return (
    <nav
      className="relative flex h-11 shrink-0 items-center gap-1 border-b border-slate-200 bg-white px-4"
      aria-label="Project"
      onKeyDown={(e) => e.key === 'Escape' && setMenuOpen(false)}
    >
      <span
        className="mr-4 min-w-16 max-w-48 flex-1 truncate font-medium text-slate-900 sm:flex-none"
        data-testid="project-name"
        title={name}
      >
        {name}
      </span>
      {/* On a phone the seven tabs do not fit: the current one opens a menu of them all. */}
      <button
        type="button"
        className="ml-auto flex shrink-0 items-center gap-1 rounded-md bg-brand-50 px-3 py-1.5 text-sm font-medium text-brand-700 sm:hidden"
        aria-expanded={menuOpen}
        aria-controls={menuId}
        aria-label={`${currentTab?.label ?? 'Project'}: open the project menu`}
        onClick={() => setMenuOpen((open) => !open)}
      >
        {currentTab?.label ?? 'Menu'}
        <ChevronDown className={cn('size-4 transition-transform', menuOpen && 'rotate-180')} aria-hidden />
      </button>
      <div
        id={menuId}
        className={cn(
          'sm:static sm:flex sm:min-w-0 sm:flex-row sm:items-center sm:gap-1 sm:overflow-x-auto sm:whitespace-nowrap sm:border-0 sm:p-0 sm:shadow-none',
          menuOpen
            ? 'absolute top-full right-2 left-2 z-50 flex flex-col gap-0.5 rounded-md border border-slate-200 bg-white p-1 shadow-lg'
            : 'hidden',
        )}
      >
        {links}
      </div>
      {/* The page's own controls for the whole row (the Bot tab: its versions and Publish); on a
          phone beside the menu, as icons where words do not fit. */}
      <div id={PROJECT_NAV_SLOT} className="ml-1 flex shrink-0 items-center sm:ml-auto" />
    </nav>
  );
}

/**
 * A tab prefetched only once the pointer or focus reaches it (Next's hover-triggered prefetch):
 * prefetching every tab as the nav appears rendered up to seven pages on the server, on the
 * embedded database's single connection, while the page just opened was loading.
 */
function TabLink({
  href,
  current,
  onFollow,
  children,
}: {
  href: string;
  current: boolean;
  /** Called when the link is followed (the phone's menu closes). */
  onFollow(): void;
  children: ReactNode;
}) {
  const [wanted, setWanted] = useState(false);
  return (
    <Link
      href={href}
      prefetch={wanted ? null : false}
      onMouseEnter={() => setWanted(true)}
      onFocus={() => setWanted(true)}
      onClick={onFollow}
      aria-current={current ? 'page' : undefined}
      className={cn(
        'rounded-md px-3 py-1.5 text-sm',
        current ? 'bg-brand-50 font-medium text-brand-700' : 'text-slate-600 hover:bg-slate-100',
      )}
    >
      {children}
    </Link>
  );
}
