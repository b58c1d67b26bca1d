import { SubmissionsTable } from '@/components/submissions/submissions-table';

export const metadata = { title: 'Submissions' };

export default async function SubmissionsPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <SubmissionsTable projectId={Number((await params).projectId)} />;
}
