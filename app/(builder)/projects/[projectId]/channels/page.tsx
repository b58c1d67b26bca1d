import { Channels } from '@/components/projects/channels';

export const metadata = { title: 'Channels' };

export default async function ChannelsPage({ params }: { params: Promise<{ projectId: string }> }) {
  return <Channels projectId={Number((await params).projectId)} />;
}
