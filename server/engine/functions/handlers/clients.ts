import { CLIENT_TYPES } from '@/server/channels/channel-adapter';
import { phoneDigits } from '@/server/contacts/client-lookup';
import type { RunState } from '@/server/engine/run-state';

export async function requireClient(run: RunState, clientId: number): Promise<void> {
  const found = await run.db.client.count({ where: { id: clientId, projectId: run.project.id } });
  if (!found) throw new Error(`client ${clientId} does not exist in this project`);
}

/** A client of the project by its messenger id (a chat-app phone in any notation), or null. */
export async function findByPlatformId(
  run: RunState,
  clientType: number,
  platformId: string,
  groupId?: string,
): Promise<number | null> {
  const ids = clientType === CLIENT_TYPES.chatapp ? [platformId, phoneDigits(platformId)] : [platformId];
  const client = await run.db.client.findFirst({
    where: {
      projectId: run.project.id,
      clientType,
      platformId: { in: ids },
      ...(groupId !== undefined ? { groupId } : {}),
    },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return client?.id ?? null;
}
