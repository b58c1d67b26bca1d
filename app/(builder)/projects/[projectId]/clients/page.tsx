import { ClientsTable } from '@/components/clients/clients-table';

export const metadata = { title: 'Clients' };

export default async function ClientsPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <ClientsTable projectId={Number((await params).projectId)} />;
}
