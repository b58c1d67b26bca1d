import { Channels } from '@/components/channels/channels-tab';
import { webhookAddressProblem } from '@/server/channels/tg/channel-service';

export const metadata = { title: 'Channels' };

export default async function ChannelsPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <Channels projectId={Number((await params).projectId)} webhookProblem={webhookAddressProblem()} />;
}
