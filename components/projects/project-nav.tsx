'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { type ReactNode, useState } from 'react';
import { cn } from '@/components/ui/cn';
import { canManageProject, type MemberRole } from '@/lib/team/member-rules';

const MANAGERS_ONLY = "Only the project's owners and admins can open this.";

export function ProjectNav({ projectId, name, role }: { projectId: number; name: string; role: MemberRole }) {
  const pathname = usePathname();
  const base = `/projects/${projectId}`;
  const tabs = [
    { href: base, label: 'Bot' },
    { href: `${base}/inbox`, label: 'Conversations' },
    { href: `${base}/clients`, label: 'Clients' },
    { href: `${base}/channels`, label: 'Channels' },
    { href: `${base}/settings`, label: 'Settings', managers: true },
    { href: `${base}/api-keys`, label: 'API keys', managers: true },
    { href: `${base}/team`, label: 'Team', managers: true },
  ];
  const manager = canManageProject(role);
  return (
    <nav
      className="flex h-11 shrink-0 items-center gap-1 overflow-x-auto whitespace-nowrap border-b border-slate-200 bg-white px-4"
      aria-label="Project"
    >
      <span className="mr-4 max-w-48 truncate font-medium text-slate-900" data-testid="project-name">
        {name}
      </span>
      {tabs.map((tab) => {
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
        // A tab's own pages (a client's profile under Clients) keep it current.
        const current = pathname === tab.href || (tab.href !== base && pathname.startsWith(`${tab.href}/`));
        return (
          <TabLink key={tab.href} href={tab.href} current={current}>
            {tab.label}
          </TabLink>
        );
      })}
    </nav>
  );
}

/**
 * A tab prefetched only once the pointer or focus reaches it (Next's hover-triggered prefetch):
 * prefetching every tab as the nav appears rendered up to seven pages on the server, on the
 * embedded database's single connection, while the page just opened was loading.
 */
function TabLink({ href, current, children }: { href: string; current: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(false);
  return (
    <Link
      href={href}
      prefetch={wanted ? null : false}
      onMouseEnter={() => setWanted(true)}
      onFocus={() => setWanted(true)}
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
