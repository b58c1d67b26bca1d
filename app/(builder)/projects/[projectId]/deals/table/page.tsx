import { DealsScreen } from '@/components/crm/deals-board';

export const metadata = { title: 'Deals table' };

export default async function DealsTablePage({ params }: { params: Promise<{ projectId: string }> }) {
  return <DealsScreen projectId={Number((await params).projectId)} view="table" />;
}
