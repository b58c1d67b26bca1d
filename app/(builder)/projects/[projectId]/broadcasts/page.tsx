import { BroadcastsList } from '@/components/broadcasts/broadcasts-list';

export const metadata = { title: 'Broadcasts' };

export default async function BroadcastsPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <BroadcastsList projectId={Number((await params).projectId)} />;
}
