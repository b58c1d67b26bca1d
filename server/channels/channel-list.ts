import type { Db } from '@/server/db/client-type';
import { notFound } from '@/server/errors';
import type { ChannelRow } from './channel-module';
import { type ChannelView, channelView } from './channel-view';
import { moduleOf } from './modules';

/** The project's connected channels of every kind as stored, oldest first (the simulator is none). */
export function findConnectedChannels(db: Db, projectId: number): Promise<ChannelRow[]> {
  return db.channel.findMany({
    where: { projectId, kind: { not: 'simulator' } },
    orderBy: { id: 'asc' },
  });
}

/** Whether the project has a channel of this client type connected. */
export async function hasConnectedChannel(db: Db, projectId: number, clientType: number): Promise<boolean> {
  return (await db.channel.findFirst({ where: { projectId, clientType }, select: { id: true } })) !== null;
}

/** The project's connected channels of every kind, as the Channels tab shows them. */
export async function listChannels(db: Db, projectId: number): Promise<ChannelView[]> {
  return (await findConnectedChannels(db, projectId)).map(channelView);
}

/** Undoes the connection at the messenger (its module, best effort) and forgets the channel. */
export async function disconnectChannel(db: Db, projectId: number, channelId: number) {
  const channel = await db.channel.findFirst({ where: { id: channelId, projectId } });
  if (!channel) throw notFound(`Channel ${channelId} is not connected to this project.`);
  const warning = (await moduleOf(channel.kind)?.disconnect?.(channel)) ?? null;
  await db.channel.delete({ where: { id: channel.id } });
  return { disconnected: true, warning };
}
