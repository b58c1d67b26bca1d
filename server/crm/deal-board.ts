import { z } from 'zod';
import type { Db } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import { DomainError, parseInput } from '@/server/errors';

/** A column's page: enough to fill a tall screen, small enough to read at once. */
export const BOARD_PAGE = 50;

export const boardFilterInput = z.object({
  assigneeId: z.number().int().positive().optional(),
  /** `unassigned`: only deals whose client has no operator. */
  unassigned: z.boolean().optional(),
  clientType: z.number().int().nonnegative().optional(),
  text: z.string().trim().max(200, 'Search text can be at most 200 characters.').optional(),
});

export const boardColumnInput = boardFilterInput.extend({
  stateId: z.number().int().positive('stateId must be a stage id.').optional(),
  /** The table view: the open deals of every open stage of the funnel (instead of `stateId`). */
  funnelId: z.number().int().positive('funnelId must be a funnel id.').optional(),
  /** The last deal id of the previous page (deals come newest first). */
  cursor: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(200).default(BOARD_PAGE),
});

export type BoardFilter = z.infer<typeof boardFilterInput>;

export interface BoardCard {
  dealId: number;
  clientId: number;
  stateId: number;
  clientName: string;
  clientType: number;
  lastMessageAt: Date | null;
  assignee: string | null;
  /** The funnel's card variables that the deal has. */
  variables: Record<string, string>;
  closedAt: Date | null;
}

function dealWhere(
  projectId: number,
  stateId: number | number[],
  open: boolean,
  filter: BoardFilter,
): Prisma.DealWhereInput {
  const client: Prisma.ClientWhereInput = {};
  if (filter.assigneeId) client.assignedMemberId = filter.assigneeId;
  if (filter.unassigned) client.assignedMemberId = null;
  if (filter.clientType !== undefined) client.clientType = filter.clientType;
  if (filter.text)
    client.OR = [
      { name: { contains: filter.text, mode: 'insensitive' } },
      { platformId: { contains: filter.text, mode: 'insensitive' } },
    ];
  return {
    projectId,
    stateId: Array.isArray(stateId) ? { in: stateId } : stateId,
    // An open stage shows the open deals; won and lost show the deals closed there.
    closedAt: open ? null : { not: null },
    ...(Object.keys(client).length ? { client } : {}),
  };
}

/**
 * One page of a board column (docs/crm.md): a stage's deals newest first, by cursor, with the
 * filters; a card each with the client, the last message's time, the assignee and the
 * funnel's card variables. Also the column's total under the filters, with the first page.
 */
export async function boardColumn(db: Db, projectId: number, rawInput: z.input<typeof boardColumnInput>) {
  const input = parseInput(boardColumnInput, rawInput);
  let where: Prisma.DealWhereInput;
  let names: string[];
  if (input.funnelId) {
    const funnel = await db.crmFunnel.findFirst({
      where: { id: input.funnelId, projectId },
      select: { cardVariables: true, states: { where: { kind: 'open' }, select: { id: true } } },
    });
    if (!funnel)
      throw new DomainError(
        'not_found',
        `Funnel ${input.funnelId} does not exist in this project: reload the page.`,
        'funnelId',
      );
    where = dealWhere(
      projectId,
      funnel.states.map((s) => s.id),
      true,
      input,
    );
    names = funnel.cardVariables;
  } else {
    if (!input.stateId)
      throw new DomainError('invalid', 'Give a stateId (a column) or a funnelId (the table).', 'stateId');
    const stage = await db.crmState.findFirst({
      where: { id: input.stateId, projectId },
      select: { kind: true, funnel: { select: { cardVariables: true } } },
    });
    if (!stage)
      throw new DomainError(
        'not_found',
        `Stage ${input.stateId} does not exist in this project: reload the board.`,
        'stateId',
      );
    where = dealWhere(projectId, input.stateId, stage.kind === 'open', input);
    names = stage.funnel.cardVariables;
  }
  const [rows, total] = await Promise.all([
    db.deal.findMany({
      where: input.cursor ? { ...where, id: { lt: input.cursor } } : where,
      orderBy: { id: 'desc' },
      take: input.limit + 1,
      select: {
        id: true,
        clientId: true,
        stateId: true,
        closedAt: true,
        client: {
          select: {
            name: true,
            platformId: true,
            clientType: true,
            lastMessageAt: true,
            assignedMember: { select: { name: true, email: true } },
          },
        },
        ...(names.length
          ? { variables: { where: { name: { in: names } }, select: { name: true, value: true } } }
          : {}),
      },
    }),
    input.cursor ? Promise.resolve(null) : db.deal.count({ where }),
  ]);
  const more = rows.length > input.limit;
  const cards: BoardCard[] = rows.slice(0, input.limit).map((row) => ({
    dealId: row.id,
    clientId: row.clientId,
    stateId: row.stateId ?? 0,
    clientName: row.client.name || row.client.platformId,
    clientType: row.client.clientType,
    lastMessageAt: row.client.lastMessageAt,
    assignee: row.client.assignedMember
      ? row.client.assignedMember.name || row.client.assignedMember.email
      : null,
    variables: Object.fromEntries(
      ((row as { variables?: { name: string; value: string }[] }).variables ?? []).map((v) => [
        v.name,
        v.value,
      ]),
    ),
    closedAt: row.closedAt,
  }));
  return { cards, total, nextCursor: more ? cards.at(-1)?.dealId : undefined };
}

/** The deal panel: the deal, its client, its stage and funnel, all its variables and its submissions. */
export async function dealDetail(db: Db, projectId: number, dealId: number) {
  const deal = await db.deal.findFirst({
    where: { id: dealId, projectId },
    include: {
      client: { select: { id: true, name: true, platformId: true, clientType: true, lastMessageAt: true } },
      state: { select: { id: true, name: true, kind: true, funnel: { select: { id: true, name: true } } } },
      variables: { orderBy: { name: 'asc' }, select: { name: true, value: true } },
      submissions: {
        orderBy: { id: 'desc' },
        take: 20,
        select: { id: true, blockId: true, createdAt: true, kept: true },
      },
    },
  });
  if (!deal) throw new DomainError('not_found', `Deal ${dealId} does not exist in this project.`, 'dealId');
  return deal;
}
