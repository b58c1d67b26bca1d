import { PHONE_CLIENT_TYPES } from '@/lib/channels/descriptors';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import {
  decodeUtf8,
  type ImportMode,
  keyText,
  MAX_REPORTED_ERRORS,
  NOT_UTF8,
  type ParsedRow,
  PREVIEW_ROWS,
  parseListCsv,
  type RowError,
  type RowKey,
} from '@/lib/lists/list-csv';
import type { Db, PrismaClient } from '@/server/db/client-type';
import { DomainError } from '@/server/errors';
import { addKnownClients, requireList } from './list-service';

/** Ids looked up per statement. */
const LOOKUP_CHUNK = 10_000;

export interface ImportReport {
  mode: ImportMode;
  columns: { name: string; use: string }[];
  /** Data rows in the file (empty lines not counted). */
  rows: number;
  /** Rows naming a client another row already named: counted, imported once. */
  duplicates: number;
  /** Distinct clients found. */
  clients: number;
  /** Of those, clients already in the list. */
  alreadyMembers: number;
  /** The first PREVIEW_ROWS rows with the client each names (or its error). */
  preview: { row: number; cells: ParsedRow['cells']; clientId: number | null; error?: string }[];
  /** Rows in error (all counted; the first MAX_REPORTED_ERRORS sent). */
  errorCount: number;
  errors: RowError[];
  /** Set once the members were written: how many were added. */
  added: number | null;
}

async function chunked<T, R>(items: readonly T[], run: (part: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += LOOKUP_CHUNK)
    out.push(...(await run(items.slice(i, i + LOOKUP_CHUNK))));
  return out;
}

/** Resolves each distinct key of the file to a client of the project, or an error message. */
async function resolveKeys(
  db: Db,
  projectId: number,
  mode: ImportMode,
  keys: Map<string, RowKey>,
): Promise<Map<string, number | string>> {
  const result = new Map<string, number | string>();
  const all = [...keys.entries()];
  if (mode === 'client_id') {
    const ids = all.map(([, k]) => (k as Extract<RowKey, { mode: 'client_id' }>).clientId);
    const found = await chunked(ids, (part) =>
      db.client.findMany({ where: { projectId, id: { in: part } }, select: { id: true } }),
    );
    const known = new Set(found.map((c) => c.id));
    for (const [text, k] of all) {
      const id = (k as Extract<RowKey, { mode: 'client_id' }>).clientId;
      result.set(text, known.has(id) ? id : `no client ${id} in this project.`);
    }
    return result;
  }
  if (mode === 'platform_id') {
    const platformIds = [
      ...new Set(all.map(([, k]) => (k as Extract<RowKey, { mode: 'platform_id' }>).platformId)),
    ];
    const found = await chunked(platformIds, (part) =>
      db.client.findMany({
        where: { projectId, platformId: { in: part } },
        select: { id: true, platformId: true, clientType: true, groupId: true },
      }),
    );
    const byPlatform = new Map<string, typeof found>();
    for (const c of found) byPlatform.set(c.platformId, [...(byPlatform.get(c.platformId) ?? []), c]);
    for (const [text, k] of all) {
      const key = k as Extract<RowKey, { mode: 'platform_id' }>;
      const matches = (byPlatform.get(key.platformId) ?? []).filter(
        (c) =>
          c.clientType === key.clientType &&
          (key.groupId === undefined || c.groupId.toLowerCase() === key.groupId.toLowerCase()),
      );
      if (matches.length === 1) result.set(text, matches[0]!.id);
      else if (!matches.length)
        result.set(
          text,
          `no client with platform_id ${key.platformId} and client_type ${key.clientType}${key.groupId ? ` in group_id ${key.groupId}` : ''} in this project.`,
        );
      else
        result.set(
          text,
          `${matches.length} clients have platform_id ${key.platformId} (one per bot of this messenger); add a group_id column to say which.`,
        );
    }
    return result;
  }
  // Phones: the `phone` variable of the clients' profiles and the numbers of phone channels' clients.
  const byDigits = new Map<string, Set<number>>();
  const note = (digits: string, id: number) => {
    if (!digits) return;
    const set = byDigits.get(digits) ?? new Set<number>();
    set.add(id);
    byDigits.set(digits, set);
  };
  const wanted = new Set(all.map(([, k]) => (k as Extract<RowKey, { mode: 'phone' }>).digits));
  let after = -1;
  for (;;) {
    const page = await db.clientVariable.findMany({
      where: { projectId, name: 'phone', clientId: { gt: after } },
      orderBy: { clientId: 'asc' },
      take: LOOKUP_CHUNK,
      select: { clientId: true, value: true },
    });
    for (const v of page) {
      const digits = phoneDigits(v.value);
      if (wanted.has(digits)) note(digits, v.clientId);
    }
    if (page.length < LOOKUP_CHUNK) break;
    after = page.at(-1)!.clientId;
  }
  const byNumber = await db.client.findMany({
    where: { projectId, clientType: { in: [...PHONE_CLIENT_TYPES] } },
    select: { id: true, platformId: true },
  });
  for (const c of byNumber) {
    const digits = phoneDigits(c.platformId);
    if (wanted.has(digits)) note(digits, c.id);
  }
  for (const [text, k] of all) {
    const digits = (k as Extract<RowKey, { mode: 'phone' }>).digits;
    const ids = [...(byDigits.get(digits) ?? [])];
    if (ids.length === 1) result.set(text, ids[0]!);
    else if (!ids.length) result.set(text, `no client with phone ${digits} in this project.`);
    else
      result.set(
        text,
        `${ids.length} clients have phone ${digits} (ids ${ids.slice(0, 5).join(', ')}); use a client_id column for them.`,
      );
  }
  return result;
}

/**
 * Reads a members CSV for a list of the project: every row checked, every client looked up.
 * With `commit`, and only when no row is in error, the clients are added in one transaction;
 * otherwise nothing is written (a preview). A file that cannot be read is refused whole
 * (DomainError naming what to fix).
 */
export async function importListMembers(
  db: PrismaClient,
  projectId: number,
  listId: number,
  bytes: Uint8Array,
  options: { commit: boolean },
): Promise<ImportReport> {
  await requireList(db, projectId, listId);
  const text = decodeUtf8(bytes);
  if (text === null) throw new DomainError('invalid', NOT_UTF8, 'file');
  const parsed = parseListCsv(text);
  if (!parsed.ok) throw new DomainError('invalid', parsed.message, 'file');

  const keys = new Map<string, RowKey>();
  let duplicates = 0;
  const rowKeys: (string | null)[] = parsed.rows.map((r) => {
    if (!r.key) return null;
    const t = keyText(r.key);
    if (keys.has(t)) duplicates++;
    else keys.set(t, r.key);
    return t;
  });
  const resolved = await resolveKeys(db, projectId, parsed.mode, keys);
  const keyColumn =
    parsed.mode === 'client_id' ? 'client_id' : parsed.mode === 'phone' ? 'phone' : 'platform_id';

  const errors: RowError[] = [];
  let errorCount = 0;
  const clientIds = new Set<number>();
  const preview: ImportReport['preview'] = [];
  const seenKeys = new Set<string>();
  parsed.rows.forEach((r, i) => {
    const t = rowKeys[i];
    const found = t === null || t === undefined ? undefined : resolved.get(t);
    let error = r.error;
    let clientId: number | null = null;
    if (typeof found === 'number') {
      // Two keys (a phone written two ways) may name one client: a duplicate too.
      if (t && !seenKeys.has(t) && clientIds.has(found)) duplicates++;
      clientIds.add(found);
      clientId = found;
    } else if (typeof found === 'string') error = { row: r.row, column: keyColumn, message: found };
    if (t) seenKeys.add(t);
    if (error) {
      errorCount++;
      if (errors.length < MAX_REPORTED_ERRORS) errors.push(error);
    }
    if (preview.length < PREVIEW_ROWS)
      preview.push({ row: r.row, cells: r.cells, clientId, ...(error ? { error: error.message } : {}) });
  });

  const ids = [...clientIds];
  const members = await chunked(ids, (part) =>
    db.clientListMember.findMany({
      where: { projectId, listId, clientId: { in: part } },
      select: { clientId: true },
    }),
  );
  const report: ImportReport = {
    mode: parsed.mode,
    columns: parsed.columns,
    rows: parsed.rows.length,
    duplicates,
    clients: ids.length,
    alreadyMembers: members.length,
    preview,
    errorCount,
    errors,
    added: null,
  };
  if (!options.commit) return report;
  if (errorCount)
    throw new DomainError(
      'invalid',
      `${errorCount} row${errorCount === 1 ? ' is' : 's are'} in error; fix the file and upload it again. Nothing was imported.`,
      'file',
    );
  if (!parsed.rows.length)
    throw new DomainError('invalid', 'The file has no rows below its header; nothing to import.', 'file');
  const added = await db
    .$transaction(
      async (tx) => {
        await requireList(tx, projectId, listId);
        return addKnownClients(tx, projectId, listId, ids);
      },
      { timeout: 120_000 },
    )
    .catch((error: unknown) => {
      // A client deleted between the lookup and the write: the whole import is rolled back.
      if ((error as { code?: string }).code === 'P2003')
        throw new DomainError(
          'conflict',
          'Some of these clients were deleted while the file was being imported; nothing was imported. Choose the file again.',
          'file',
        );
      throw error;
    });
  return { ...report, added };
}
