import { ListsPage } from '@/components/lists/lists-page';

export const metadata = { title: 'Lists' };

export default async function ClientListsPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <ListsPage projectId={Number((await params).projectId)} />;
}
