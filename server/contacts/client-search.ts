import { z } from 'zod';
import { clientDisplayName, messengerLabel } from '@/lib/client-display';
import { decodeCursor, encodeCursor } from '@/lib/keyset-cursor';
import type { Db } from '@/server/db/client-type';
import type { Prisma } from '@/server/db/generated/client';
import { invalid, parseInput } from '@/server/errors';

export const MAX_SEARCH_PAGE = 100;
/** Longer search text is never a name, phone or e-mail; refusing it keeps every query cheap. */
export const MAX_SEARCH_TEXT = 200;

const text = (what: string) =>
  z
    .string()
    .trim()
    .max(MAX_SEARCH_TEXT, `The ${what} can be at most ${MAX_SEARCH_TEXT} characters.`)
    .optional();

/**
 * The Clients tab's query. `query` matches name, platform id and the `phone` and `email`
 * variables; a variable is searched with separate `variableName` (exact) and `variableValue`
 * (contained) fields, so values holding `=` need no quoting. Every text match is a
 * case-insensitive "contains" with `%`, `_` and `\` taken literally.
 */
export const clientFilterInput = z.object({
  query: text('search text'),
  variableName: text('variable name'),
  variableValue: text('variable value'),
  clientType: z.number().int().optional(),
  listId: z.number().int().positive().optional(),
  /** Clients that are not members of this list. */
  notListId: z.number().int().positive().optional(),
  crmStateId: z.number().int().positive().optional(),
  tag: text('tag'),
  /** A member's id, or null for clients nobody is assigned to. */
  assignedMemberId: z.number().int().positive().nullable().optional(),
});
export type ClientFilterInput = z.input<typeof clientFilterInput>;

export const clientSearchInput = clientFilterInput.extend({
  sort: z.enum(['created', 'lastMessage', 'name']).default('created'),
  direction: z.enum(['asc', 'desc']).default('desc'),
  limit: z.number().int().min(1).max(MAX_SEARCH_PAGE).default(50),
  cursor: z.string().max(500).optional(),
});
export type ClientSearchInput = z.input<typeof clientSearchInput>;

const SORT_FIELD = { created: 'createdAt', lastMessage: 'lastMessageAt', name: 'name' } as const;
/** Variables the free-text search looks into besides name and platform id. */
const CONTACT_VARIABLES = ['phone', 'email'];

/** Postgres LIKE's escape character is `\`; Prisma passes `contains` text to LIKE unescaped. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, '\\$&');
const contains = (s: string) => ({ contains: likeLiteral(s), mode: 'insensitive' as const });

function filters(input: z.output<typeof clientFilterInput>): Prisma.ClientWhereInput[] {
  const where: Prisma.ClientWhereInput[] = [];
  if (input.query)
    where.push({
      OR: [
        { name: contains(input.query) },
        { platformId: contains(input.query) },
        { variables: { some: { name: { in: CONTACT_VARIABLES }, value: contains(input.query) } } },
      ],
    });
  if (input.variableName || input.variableValue)
    where.push({
      variables: {
        some: {
          ...(input.variableName ? { name: input.variableName } : {}),
          ...(input.variableValue ? { value: contains(input.variableValue) } : {}),
        },
      },
    });
  if (input.clientType !== undefined) where.push({ clientType: input.clientType });
  if (input.listId) where.push({ lists: { some: { listId: input.listId } } });
  if (input.notListId) where.push({ lists: { none: { listId: input.notListId } } });
  if (input.crmStateId) where.push({ deals: { some: { stateId: input.crmStateId, closedAt: null } } });
  if (input.tag) where.push({ tag: input.tag });
  if (input.assignedMemberId !== undefined) where.push({ assignedMemberId: input.assignedMemberId });
  return where;
}

/**
 * The clients of a Clients-tab filter as a Prisma condition: the one reading of a filter, for
 * the table, the list actions on every matching client and the CSV export.
 */
export function clientFilterWhere(projectId: number, rawFilter: ClientFilterInput): Prisma.ClientWhereInput {
  return { AND: [{ projectId }, ...filters(parseInput(clientFilterInput, rawFilter))] };
}

/** How many clients a filter matches (the "select all N" of the Clients tab). */
export async function countClients(db: Db, projectId: number, filter: ClientFilterInput) {
  return db.client.count({ where: clientFilterWhere(projectId, filter) });
}

/**
 * Rows after the cursor in (key, id) order. Nulls (clients with no message yet) come last in
 * both directions, so after a non-null key the null rows still follow.
 */
function afterCursor(field: string, dir: 'asc' | 'desc', key: Date | string | null, id: number) {
  const beyond = dir === 'asc' ? 'gt' : 'lt';
  if (key === null) return { [field]: null, id: { [beyond]: id } };
  return {
    OR: [
      { [field]: { [beyond]: key } },
      { [field]: key, id: { [beyond]: id } },
      ...(field === 'lastMessageAt' ? [{ [field]: null }] : []),
    ],
  } as Prisma.ClientWhereInput;
}

const rowFields = {
  id: true,
  name: true,
  clientType: true,
  platformId: true,
  tag: true,
  currentBlockId: true,
  createdAt: true,
  lastMessageAt: true,
  assignedMember: { select: { id: true, name: true, email: true } },
  variables: { where: { name: { in: CONTACT_VARIABLES } }, select: { name: true, value: true } },
} satisfies Prisma.ClientSelect;

/** One page of the project's clients, newest first by default, and the cursor of the next. */
export async function searchClients(db: Db, projectId: number, rawInput: ClientSearchInput) {
  const input = parseInput(clientSearchInput, rawInput);
  const sortKey = `${input.sort}:${input.direction}`;
  const field = SORT_FIELD[input.sort];
  const where: Prisma.ClientWhereInput[] = [{ projectId }, ...filters(input)];
  if (input.cursor) {
    const cursor = decodeCursor(input.cursor, sortKey);
    if (!cursor) throw invalid('This page link is out of date; search again from the first page.', 'cursor');
    const key = typeof cursor.key === 'string' && field !== 'name' ? new Date(cursor.key) : cursor.key;
    if (typeof key === 'number' || (key instanceof Date && Number.isNaN(key.getTime())))
      throw invalid('This page link is out of date; search again from the first page.', 'cursor');
    where.push(afterCursor(field, input.direction, key, cursor.id));
  }
  const rows = await db.client.findMany({
    where: { AND: where },
    orderBy: [
      field === 'lastMessageAt'
        ? { lastMessageAt: { sort: input.direction, nulls: 'last' } }
        : { [field]: input.direction },
      { id: input.direction },
    ],
    take: input.limit + 1,
    select: rowFields,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const lastKey = last?.[field];
  const blockIds = [...new Set(page.flatMap((c) => (c.currentBlockId === null ? [] : [c.currentBlockId])))];
  const blocks = await db.block.findMany({
    where: { projectId, id: { in: blockIds } },
    select: { id: true, name: true },
  });
  const blockName = new Map(blocks.map((b) => [b.id, b.name]));
  return {
    clients: page.map(({ variables, ...c }) => ({
      ...c,
      displayName: clientDisplayName(c),
      messenger: messengerLabel(c.clientType),
      currentBlockName: c.currentBlockId === null ? null : (blockName.get(c.currentBlockId) ?? ''),
      phone: variables.find((v) => v.name === 'phone')?.value ?? '',
      email: variables.find((v) => v.name === 'email')?.value ?? '',
    })),
    nextCursor:
      rows.length > input.limit && last
        ? encodeCursor({
            sort: sortKey,
            key: lastKey instanceof Date ? lastKey.toISOString() : (lastKey ?? null),
            id: last.id,
          })
        : null,
  };
}
