import { clientDisplayName, messengerLabel } from '@/lib/client-display';
import { isBotPaused } from '@/lib/inbox/pause';
import type { Db } from '@/server/db/client-type';
import { notFound } from '@/server/errors';
import { storedSubmissionVariables } from './submission-listing';
import { readVariables } from './variable-store';

/** Submissions shown on the profile, newest first; older ones are in the webhook's records. */
export const PROFILE_SUBMISSIONS = 20;

/**
 * Everything the client profile shows beside the history: who the client is, where they are
 * in the bot, their variables by scope, their open deal in the CRM, its submissions, their
 * lists and the member they are assigned to. Another project's client is not found.
 */
export async function clientProfile(db: Db, projectId: number, clientId: number) {
  const client = await db.client.findFirst({
    where: { id: clientId, projectId },
    select: {
      id: true,
      name: true,
      clientType: true,
      groupId: true,
      platformId: true,
      tag: true,
      avatar: true,
      subscribed: true,
      createdAt: true,
      lastMessageAt: true,
      currentBlockId: true,
      botPausedAt: true,
      botPausedUntil: true,
      waitingSince: true,
      assignedMember: { select: { id: true, name: true, email: true, role: true } },
      lists: {
        select: { addedAt: true, list: { select: { id: true, name: true } } },
        orderBy: { listId: 'asc' },
      },
    },
  });
  if (!client) throw notFound(`Client ${clientId} does not exist in this project.`);
  const deal = await db.deal.findFirst({
    where: { projectId, clientId, closedAt: null },
    orderBy: { id: 'desc' },
    select: {
      id: true,
      createdAt: true,
      state: { select: { id: true, name: true, color: true, funnel: { select: { id: true, name: true } } } },
    },
  });
  const [variables, submissions, closedDeals] = await Promise.all([
    readVariables(db, { projectId, clientId, dealId: deal?.id ?? null }),
    db.submission.findMany({
      where: { projectId, clientId },
      orderBy: { id: 'desc' },
      take: PROFILE_SUBMISSIONS,
      select: { id: true, dealId: true, blockId: true, variables: true, kept: true, createdAt: true },
    }),
    db.deal.count({ where: { projectId, clientId, closedAt: { not: null } } }),
  ]);
  const blockIds = [client.currentBlockId, ...submissions.map((s) => s.blockId)].filter((id) => id !== null);
  const blocks = await db.block.findMany({
    where: { projectId, id: { in: [...new Set(blockIds)] } },
    select: { id: true, name: true, kind: true },
  });
  // A block deleted from the bot since keeps its id, with no name.
  const blockOf = (id: number) => blocks.find((b) => b.id === id) ?? { id, name: '', kind: null };
  const { lists, ...rest } = client;
  return {
    ...rest,
    displayName: clientDisplayName(client),
    messenger: messengerLabel(client.clientType),
    botPaused: isBotPaused(client, new Date()),
    currentBlock: client.currentBlockId === null ? null : blockOf(client.currentBlockId),
    lists: lists.map((l) => ({ ...l.list, addedAt: l.addedAt })),
    variables,
    deal: deal && { id: deal.id, createdAt: deal.createdAt, state: deal.state },
    closedDeals,
    submissions: submissions.map((s) => ({
      ...s,
      block: blockOf(s.blockId),
      variables: storedSubmissionVariables.parse(s.variables),
    })),
  };
}
export type ClientProfile = Awaited<ReturnType<typeof clientProfile>>;
