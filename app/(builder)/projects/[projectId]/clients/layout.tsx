import type { ReactNode } from 'react';
import { SectionNav } from '@/components/projects/section-nav';
import { requireSession } from '@/server/auth/require-session';
import { getDb } from '@/server/db';
import { canManageProject, requireMembership } from '@/server/projects/membership';

/** The Clients tab's pages: all clients (a client's profile under it) and the lists. */
export default async function ClientsLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ projectId: string }>;
}) {
  const projectId = Number((await params).projectId);
  // The project's layout has checked the membership (and answered 404 without it).
  const session = await requireSession();
  const { role } = await requireMembership(await getDb(), session.user.id, projectId);
  const base = `/projects/${projectId}/clients`;
  return (
    <>
      <SectionNav
        label="Clients pages"
        manager={canManageProject(role)}
        pages={[
          { href: base, label: 'All clients' },
          { href: `${base}/lists`, label: 'Lists' },
        ]}
      />
      {children}
    </>
  );
}
