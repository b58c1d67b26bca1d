import { BroadcastCompose } from '@/components/broadcasts/broadcast-compose';

export const metadata = { title: 'New broadcast' };

export default async function NewBroadcastPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <BroadcastCompose projectId={Number((await params).projectId)} />;
}
