import { notFound } from 'next/navigation';
import { BroadcastView } from '@/components/broadcasts/broadcast-view';

export const metadata = { title: 'Broadcast' };

export default async function BroadcastPage({
  params,
}: {
  params: Promise<{ projectId: string; broadcastId: string }>;
}) {
  const { projectId, broadcastId } = await params;
  const id = Number(broadcastId);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  return <BroadcastView projectId={Number(projectId)} broadcastId={id} />;
}
