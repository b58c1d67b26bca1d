import { DealsScreen } from '@/components/crm/deals-board';

export const metadata = { title: 'Deals' };

export default async function DealsBoardPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <DealsScreen projectId={Number((await params).projectId)} view="board" />;
}
