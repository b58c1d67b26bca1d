import { CLIENT_TYPES, clientIdentity } from '@/lib/channels/descriptors';
import type { Prisma } from '@/server/db/generated/client';
import type { RunState } from '@/server/engine/run-state';

export async function requireClient(run: RunState, clientId: number): Promise<void> {
  const found = await run.db.client.count({ where: { id: clientId, projectId: run.project.id } });
  if (!found) throw new Error(`client ${clientId} does not exist in this project`);
}

/**
 * A client of the project by its messenger id (a chat-app phone in any notation), or null.
 * With several bots of a messenger connected one person may be a client of each: `groupId`
 * picks the bot; without it, the running client's own bot when it is of that messenger, else
 * the one bot the id is known to (an error names the bots when it is known to several).
 * `only` narrows the search further (tg_callback's business flag).
 */
export async function findByPlatformId(
  run: RunState,
  clientType: number,
  platformId: string,
  groupId?: string,
  only: Prisma.ClientWhereInput = {},
): Promise<number | null> {
  // Stored in one form; a phone channel's earlier rows may carry the number as it came.
  const ids = [...new Set([platformId, clientIdentity({ clientType, groupId: '', platformId }).platformId])];
  const clients = await run.db.client.findMany({
    where: {
      ...only,
      projectId: run.project.id,
      clientType,
      platformId: { in: ids },
      // tg bot usernames are case-insensitive.
      ...(groupId === undefined
        ? {}
        : clientType === CLIENT_TYPES.tg
          ? { groupId: { equals: groupId, mode: 'insensitive' as const } }
          : { groupId }),
    },
    select: { id: true, groupId: true },
    orderBy: { id: 'asc' },
    take: 20,
  });
  const own = run.client.clientType === clientType && clients.find((c) => c.groupId === run.client.groupId);
  if (own) return own.id;
  const bots = [...new Set(clients.map((c) => c.groupId))];
  if (bots.length > 1)
    throw new Error(
      `platform_id ${platformId} is a client of several bots (${bots.join(', ')}): pass the bot's group_id`,
    );
  return clients[0]?.id ?? null;
}
