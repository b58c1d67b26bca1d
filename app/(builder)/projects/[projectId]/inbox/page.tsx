import { InboxScreen } from '@/components/inbox/inbox-screen';

export const metadata = { title: 'Conversations' };

export default async function InboxPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <InboxScreen projectId={Number((await params).projectId)} />;
}
