import type { Db } from '@/server/db/client-type';
import { notFound } from '@/server/errors';
import { type ChannelView, channelView } from './channel-view';
import { moduleOf } from './modules';

/** The project's connected channels of every kind, as the Channels tab shows them. */
export async function listChannels(db: Db, projectId: number): Promise<ChannelView[]> {
  const rows = await db.channel.findMany({
    where: { projectId, kind: { not: 'simulator' } },
    orderBy: { id: 'asc' },
  });
  return rows.map(channelView);
}

/** Undoes the connection at the messenger (its module, best effort) and forgets the channel. */
export async function disconnectChannel(db: Db, projectId: number, channelId: number) {
  const channel = await db.channel.findFirst({ where: { id: channelId, projectId } });
  if (!channel) throw notFound(`Channel ${channelId} is not connected to this project.`);
  const warning = (await moduleOf(channel.kind)?.disconnect?.(channel)) ?? null;
  await db.channel.delete({ where: { id: channel.id } });
  return { disconnected: true, warning };
}
