import { notFound } from 'next/navigation';
import { ClientProfile } from '@/components/clients/client-profile';

export const metadata = { title: 'Client' };

export default async function ClientProfilePage({
  params,
}: {
  params: Promise<{ projectId: string; clientId: string }>;
}) {
  const { projectId, clientId } = await params;
  const id = Number(clientId);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  return <ClientProfile projectId={Number(projectId)} clientId={id} />;
}
