import { notFound } from 'next/navigation';
import { BroadcastEdit } from '@/components/broadcasts/broadcast-edit';

export const metadata = { title: 'Edit draft' };

export default async function EditDraftPage({
  params,
}: {
  params: Promise<{ projectId: string; broadcastId: string }>;
}) {
  const { projectId, broadcastId } = await params;
  const id = Number(broadcastId);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  return <BroadcastEdit projectId={Number(projectId)} broadcastId={id} />;
}
