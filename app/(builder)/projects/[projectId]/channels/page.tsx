import { Channels } from '@/components/projects/channels';
import { webhookAddressProblem } from '@/server/channels/tg/channel-service';

export const metadata = { title: 'Channels' };

export default async function ChannelsPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <Channels projectId={Number((await params).projectId)} webhookProblem={webhookAddressProblem()} />;
}
