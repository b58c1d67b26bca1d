import { z } from 'zod';
import { clientDisplayName, messengerLabel } from '@/lib/client-display';
import { MAX_IMPORT_BYTES } from '@/lib/lists/list-csv';
import { cappedBytes } from '@/server/channels/capped-body';
import type { PrismaClient } from '@/server/db/client-type';
import { csvResponse } from '@/server/downloads/csv-response';
import { DomainError } from '@/server/errors';
import { domainRefusal, jsonRefusal, memberOfRequest } from '@/server/projects/request-member';
import { type ClientFilterInput, clientFilterInput, clientFilterWhere } from './client-search';
import { importListMembers } from './list-import';
import { requireList } from './list-service';

const IMPORT_USAGE =
  'POST /api/projects/<project id>/lists/<list id>/import[?commit=1][&channel=<channel id>] with the CSV file as the body';
const EXPORT_USAGE = '/api/projects/<project id>/clients/export[?<Clients filter>]';

const positiveId = (s: string) => (/^\d{1,10}$/.test(s) && Number(s) > 0 ? Number(s) : null);

/**
 * POST /api/projects/<project>/lists/<list>/import[?commit=1][&channel=<id>]: the CSV file as the
 * body. Without `commit`, a preview (nothing written); with it, the members are added in one
 * transaction, only if no row is in error (server/contacts/list-import.ts). With `channel` (a
 * chat-app number or telephony line), numbers no client has become that channel's new clients.
 * Any member of the project.
 */
export async function listImportRoute(request: Request, rawProjectId: string, rawListId: string) {
  const member = await memberOfRequest(request, rawProjectId, IMPORT_USAGE);
  if (member instanceof Response) return member;
  const listId = positiveId(rawListId);
  if (!listId)
    return jsonRefusal(400, `The address must name a list id (a positive whole number): ${IMPORT_USAGE}.`);
  const bytes = await cappedBytes(request, MAX_IMPORT_BYTES);
  if (!bytes)
    return jsonRefusal(
      413,
      `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB; split it and import each part.`,
      'file',
    );
  const query = new URL(request.url).searchParams;
  const commit = query.get('commit') === '1';
  const rawChannel = query.get('channel');
  const channelId = rawChannel === null || rawChannel === '' ? undefined : positiveId(rawChannel);
  if (channelId === null)
    return jsonRefusal(
      400,
      `channel must be a channel id (a positive whole number), not "${rawChannel?.slice(0, 40)}".`,
      'channel',
    );
  try {
    return Response.json(
      await importListMembers(member.db, member.projectId, listId, bytes, { commit, channelId }),
      { headers: { 'Cache-Control': 'no-store' } },
    );
  } catch (error) {
    if (error instanceof DomainError) return domainRefusal(error);
    throw error;
  }
}

/** A Clients-tab filter from the query string (numbers as text; `unassigned` for no member). */
const exportQuery = z.object({
  query: z.string().optional(),
  variableName: z.string().optional(),
  variableValue: z.string().optional(),
  clientType: z.coerce.number().int().optional(),
  listId: z.coerce.number().int().positive().optional(),
  notListId: z.coerce.number().int().positive().optional(),
  crmStateId: z.coerce.number().int().positive().optional(),
  tag: z.string().optional(),
  assignedMemberId: z
    .union([z.literal('none').transform(() => null), z.coerce.number().int().positive()])
    .optional(),
});

export const EXPORT_COLUMNS = [
  'client_id',
  'name',
  'messenger',
  'client_type',
  'platform_id',
  'group_id',
  'phone',
  'email',
  'tag',
  'created_at',
  'last_message_at',
] as const;

/** Rows read per query while streaming. */
const EXPORT_PAGE = 1000;

/**
 * The clients of a filter as CSV rows (EXPORT_COLUMNS first), read EXPORT_PAGE rows at a time by
 * id as the download pulls them: memory stays flat whatever the count.
 */
export async function* clientsCsvRows(db: PrismaClient, projectId: number, filter: ClientFilterInput) {
  const where = clientFilterWhere(projectId, filter);
  yield EXPORT_COLUMNS;
  let after = 0;
  for (;;) {
    const rows = await db.client.findMany({
      where: { AND: [where, { id: { gt: after } }] },
      orderBy: { id: 'asc' },
      take: EXPORT_PAGE,
      select: {
        id: true,
        name: true,
        clientType: true,
        platformId: true,
        groupId: true,
        tag: true,
        createdAt: true,
        lastMessageAt: true,
        variables: { where: { name: { in: ['phone', 'email'] } }, select: { name: true, value: true } },
      },
    });
    for (const c of rows) {
      const v = (name: string) => c.variables.find((x) => x.name === name)?.value ?? '';
      yield [
        String(c.id),
        c.name || clientDisplayName(c),
        messengerLabel(c.clientType),
        String(c.clientType),
        c.platformId,
        c.groupId,
        v('phone'),
        v('email'),
        c.tag,
        c.createdAt.toISOString(),
        c.lastMessageAt?.toISOString() ?? '',
      ];
    }
    if (rows.length < EXPORT_PAGE) return;
    after = rows[rows.length - 1].id;
  }
}

/**
 * GET /api/projects/<project>/clients/export?<filter>: every client the filter matches (a
 * list's members with `listId`), as CSV streamed page by page by id. Any member.
 */
export async function clientsExportRoute(request: Request, rawProjectId: string) {
  const member = await memberOfRequest(request, rawProjectId, EXPORT_USAGE);
  if (member instanceof Response) return member;
  const { db, projectId } = member;
  const raw = exportQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const filter = raw.success ? clientFilterInput.safeParse(raw.data) : raw;
  if (!filter.success) {
    const issue = filter.error.issues[0];
    return jsonRefusal(
      400,
      `${issue?.path.join('.') || 'query'}: ${issue?.message ?? 'invalid'}`,
      issue?.path.join('.'),
    );
  }
  let fileName = 'clients.csv';
  try {
    if (filter.data.listId) {
      const list = await requireList(db, projectId, filter.data.listId);
      fileName = `list-${list.id}.csv`;
    }
    if (filter.data.notListId) await requireList(db, projectId, filter.data.notListId);
  } catch (error) {
    if (error instanceof DomainError) return domainRefusal(error);
    throw error;
  }
  return csvResponse(fileName, clientsCsvRows(db, projectId, filter.data));
}
