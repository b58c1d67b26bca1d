import type { ReactNode } from 'react';
import { SectionNav } from '@/components/projects/section-nav';

/** The Clients tab's pages: all clients (a client's profile under it) and the lists. */
export default async function ClientsLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ projectId: string }>;
}) {
  const projectId = Number((await params).projectId);
  // Every member may open both pages: no role to read (the project's layout checked membership).
  const base = `/projects/${projectId}/clients`;
  return (
    <>
      <SectionNav
        label="Clients pages"
        manager={false}
        pages={[
          { href: base, label: 'All clients' },
          { href: `${base}/lists`, label: 'Lists' },
        ]}
      />
      {children}
    </>
  );
}
