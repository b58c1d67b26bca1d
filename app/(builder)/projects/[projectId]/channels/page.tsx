import { Channels } from '@/components/channels/channels-tab';
import { webhookAddressProblems } from '@/server/channels/webhook-problems';

export const metadata = { title: 'Channels' };

export default async function ChannelsPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <Channels projectId={Number((await params).projectId)} webhookProblems={webhookAddressProblems()} />;
}
