import type { ReactNode } from 'react';
import { SectionNav } from '@/components/projects/section-nav';
import { canManageProject } from '@/lib/team/member-rules';
import { requireSession } from '@/server/auth/require-session';
import { getDb } from '@/server/db';
import { requireMembership } from '@/server/projects/membership';

/** The Deals tab (docs/crm.md): the board, the same deals as a table, the funnels (admins), submissions. */
export default async function DealsLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ projectId: string }>;
}) {
  const projectId = Number((await params).projectId);
  const session = await requireSession();
  // The project layout has checked the membership already; this reads the role for the pages shown.
  const { role } = await requireMembership(await getDb(), session.user.id, projectId);
  const base = `/projects/${projectId}/deals`;
  const pages = [
    { href: base, label: 'Board' },
    { href: `${base}/table`, label: 'Table' },
    { href: `${base}/funnels`, label: 'Funnels', managers: true },
    { href: `${base}/submissions`, label: 'Submissions' },
  ];
  return (
    <div className="flex h-full flex-col">
      <SectionNav pages={pages} manager={canManageProject(role)} label="Deals pages" />
      <div className="min-h-0 flex-1 overflow-auto">{children}</div>
    </div>
  );
}
