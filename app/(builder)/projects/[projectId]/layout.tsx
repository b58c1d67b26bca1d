import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { ProjectNav } from '@/components/projects/project-nav';
import type { MemberRole } from '@/lib/team/member-rules';
import { requireSession } from '@/server/auth/require-session';
import { getDb } from '@/server/db';
import { DomainError } from '@/server/errors';
import { requireMembership } from '@/server/projects/membership';
import { getProject } from '@/server/projects/project-service';

export default async function ProjectLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ projectId: string }>;
}) {
  const session = await requireSession();
  const projectId = Number((await params).projectId);
  if (!Number.isSafeInteger(projectId) || projectId <= 0) notFound();
  const db = await getDb();
  let role: MemberRole;
  try {
    ({ role } = await requireMembership(db, session.user.id, projectId));
  } catch (error) {
    if (error instanceof DomainError) notFound();
    throw error;
  }
  const project = await getProject(db, projectId);
  return (
    <div className="flex h-full flex-col">
      <ProjectNav projectId={projectId} name={project.name} role={role} />
      <div className="min-h-0 flex-1 overflow-auto">{children}</div>
    </div>
  );
}
