import { z } from 'zod';
import { clientDisplayName, messengerLabel } from '@/lib/client-display';
import { MAX_IMPORT_BYTES } from '@/lib/lists/list-csv';
import { getSessionFromHeaders } from '@/server/auth/auth';
import { getDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { DomainError } from '@/server/errors';
import { requireMembership } from '@/server/projects/membership';
import { type ClientFilterInput, clientFilterInput, clientFilterWhere } from './client-search';
import { importListMembers } from './list-import';
import { requireList } from './list-service';

const json = (status: number, body: unknown) =>
  Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } });
const fail = (status: number, message: string, field?: string) =>
  json(status, { error: message, ...(field ? { field } : {}) });

const STATUS: Record<DomainError['code'], number> = {
  invalid: 400,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  limit: 413,
  plan: 402,
};

const positiveId = (s: string) => (/^\d{1,10}$/.test(s) && Number(s) > 0 ? Number(s) : null);

/** The signed-in member's project, or the Response refusing the request. */
async function memberProject(
  request: Request,
  rawProjectId: string,
): Promise<{ db: PrismaClient; projectId: number } | Response> {
  const projectId = positiveId(rawProjectId);
  if (!projectId) return fail(400, 'The address must name a project id (a positive whole number).');
  const session = await getSessionFromHeaders(request.headers);
  if (!session) return fail(401, 'Sign in to continue.');
  const db = await getDb();
  try {
    await requireMembership(db, session.user.id, projectId);
  } catch (error) {
    if (error instanceof DomainError) return fail(404, error.message);
    throw error;
  }
  return { db, projectId };
}

/** Reads the body up to `limit` bytes; null when it is longer (the rest is not read). */
async function readCapped(request: Request, limit: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) return null;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.byteLength;
  }
  return bytes;
}

/**
 * POST /api/projects/<project>/lists/<list>/import[?commit=1]: the CSV file as the body. Without
 * `commit`, a preview (nothing written); with it, the members are added in one transaction,
 * only if no row is in error (server/contacts/list-import.ts). Any member of the project.
 */
export async function listImportRoute(request: Request, rawProjectId: string, rawListId: string) {
  const member = await memberProject(request, rawProjectId);
  if (member instanceof Response) return member;
  const listId = positiveId(rawListId);
  if (!listId) return fail(400, 'The address must name a list id (a positive whole number).');
  const bytes = await readCapped(request, MAX_IMPORT_BYTES);
  if (!bytes)
    return fail(
      413,
      `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB; split it and import each part.`,
      'file',
    );
  const commit = new URL(request.url).searchParams.get('commit') === '1';
  try {
    return json(200, await importListMembers(member.db, member.projectId, listId, bytes, { commit }));
  } catch (error) {
    if (error instanceof DomainError) return fail(STATUS[error.code], error.message, error.field);
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
 * A spreadsheet runs a cell starting with these as a formula: written with a leading quote
 * (a phone number such as +7 900 123-45-67 is left as it is).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PHONE_LIKE = /^\+[\d\s().-]*$/;
function cell(value: string) {
  const v = FORMULA_START.test(value) && !PHONE_LIKE.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * The clients of a filter as CSV (EXPORT_COLUMNS), read EXPORT_PAGE rows at a time by id as the
 * reader pulls: memory stays flat whatever the count.
 */
export function clientsCsvStream(db: PrismaClient, projectId: number, filter: ClientFilterInput) {
  const where = clientFilterWhere(projectId, filter);
  const encoder = new TextEncoder();
  let after = 0;
  let headerSent = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        // A byte order mark so that Excel reads the file as UTF-8.
        controller.enqueue(encoder.encode(`\ufeff${EXPORT_COLUMNS.join(',')}\r\n`));
        return;
      }
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
      if (!rows.length) {
        controller.close();
        return;
      }
      after = rows.at(-1)!.id;
      const lines = rows.map((c) => {
        const v = (name: string) => c.variables.find((x) => x.name === name)?.value ?? '';
        return [
          String(c.id),
          cell(c.name || clientDisplayName(c)),
          cell(messengerLabel(c.clientType)),
          String(c.clientType),
          cell(c.platformId),
          cell(c.groupId),
          cell(v('phone')),
          cell(v('email')),
          cell(c.tag),
          c.createdAt.toISOString(),
          c.lastMessageAt?.toISOString() ?? '',
        ].join(',');
      });
      controller.enqueue(encoder.encode(`${lines.join('\r\n')}\r\n`));
    },
  });
  return stream;
}

/**
 * GET /api/projects/<project>/clients/export?<filter>: every client the filter matches (a
 * list's members with `listId`), as CSV streamed page by page by id. Any member.
 */
export async function clientsExportRoute(request: Request, rawProjectId: string) {
  const member = await memberProject(request, rawProjectId);
  if (member instanceof Response) return member;
  const { db, projectId } = member;
  const raw = exportQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const filter = raw.success ? clientFilterInput.safeParse(raw.data) : raw;
  if (!filter.success) {
    const issue = filter.error.issues[0];
    return fail(
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
    if (error instanceof DomainError) return fail(404, error.message);
    throw error;
  }
  const stream = clientsCsvStream(db, projectId, filter.data);
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'no-store',
    },
  });
}
