import { KnowledgeBase } from '@/components/knowledge/knowledge-base';
import { canManageProject } from '@/lib/team/member-rules';
import { requireSession } from '@/server/auth/require-session';
import { getDb } from '@/server/db';
import { requireMembership } from '@/server/projects/membership';

export const metadata = { title: 'Knowledge base' };

export default async function KnowledgePage({ params }: { params: Promise<{ projectId: string }> }) {
  const projectId = Number((await params).projectId);
  const session = await requireSession();
  // The project layout has checked the membership already; this reads the role for the controls shown.
  const { role } = await requireMembership(await getDb(), session.user.id, projectId);
  return <KnowledgeBase projectId={projectId} manager={canManageProject(role)} />;
}
