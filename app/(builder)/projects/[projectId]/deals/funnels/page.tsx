import { FunnelEditor } from '@/components/crm/funnel-editor';

export const metadata = { title: 'Funnels' };

export default async function FunnelsPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <FunnelEditor projectId={Number((await params).projectId)} />;
}
