import { Team } from '@/components/projects/team';

export const metadata = { title: 'Team' };

export default async function TeamPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <Team projectId={Number((await params).projectId)} />;
}
