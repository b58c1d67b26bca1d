import {
  CHANNEL_DESCRIPTORS,
  clientIdentity,
  descriptorOfKind,
  PHONE_CLIENT_TYPES,
} from '@/lib/channels/descriptors';
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
import { resolveClients } from './client-service';
import { addKnownClients, requireList } from './list-service';
import { valueKey } from './variable-limits';

/** Ids looked up per statement. */
const LOOKUP_CHUNK = 10_000;

/** A channel new clients may be created for: one that reaches people by their phone number. */
export interface ImportChannel {
  id: number;
  kind: string;
  clientType: number;
  groupId: string;
  name: string;
  /** The screens' name of its messenger ("Chat app", "Telephony"). */
  label: string;
}

const PHONE_KINDS = CHANNEL_DESCRIPTORS.filter((d) => d.platformIds === 'phone').map((d) => d.kind);

const importChannel = (c: {
  id: number;
  kind: string;
  clientType: number;
  groupId: string;
  name: string;
}) => ({
  id: c.id,
  kind: c.kind,
  clientType: c.clientType,
  groupId: c.groupId,
  name: c.name,
  label: descriptorOfKind(c.kind)?.label ?? c.kind,
});

/** The project's channels that reach people by phone (chat-app numbers, telephony lines), oldest first. */
export async function importChannels(db: Db, projectId: number): Promise<ImportChannel[]> {
  const rows = await db.channel.findMany({
    where: { projectId, kind: { in: PHONE_KINDS as never[] } },
    orderBy: { id: 'asc' },
    select: { id: true, kind: true, clientType: true, groupId: true, name: true },
  });
  return rows.map(importChannel);
}

async function requireImportChannel(db: Db, projectId: number, channelId: number): Promise<ImportChannel> {
  const channel = await db.channel.findFirst({
    where: { id: channelId, projectId },
    select: { id: true, kind: true, clientType: true, groupId: true, name: true },
  });
  if (!channel)
    throw new DomainError(
      'not_found',
      `Channel ${channelId} is not connected to this project (it may have been disconnected); choose another.`,
      'channel',
    );
  if (!(PHONE_KINDS as readonly string[]).includes(channel.kind))
    throw new DomainError(
      'invalid',
      `Channel ${channelId} (${importChannel(channel).label}) does not reach people by phone number: new clients are created only for a chat-app number or a telephony line.`,
      'channel',
    );
  return importChannel(channel);
}

/** A number no client has, to become a client of the chosen channel. */
interface NewClient {
  platformId: string;
}

export interface ImportReport {
  mode: ImportMode;
  /** The channel new clients are created for, when one was chosen. */
  channel: ImportChannel | null;
  columns: { name: string; use: string }[];
  /** Data rows in the file (empty lines not counted). */
  rows: number;
  /** Rows naming a client another row already named: counted, imported once. */
  duplicates: number;
  /** Distinct clients found. */
  clients: number;
  /** Distinct new clients the import creates (numbers no client has; a channel chosen). */
  newClients: number;
  /** Of those, clients already in the list. */
  alreadyMembers: number;
  /** The first PREVIEW_ROWS rows with the client each names (or its error). */
  preview: {
    row: number;
    cells: ParsedRow['cells'];
    clientId: number | null;
    /** A new client is created for this row. */
    isNew?: true;
    error?: string;
  }[];
  /** Rows in error (all counted; the first MAX_REPORTED_ERRORS sent). */
  errorCount: number;
  errors: RowError[];
  /** Set once the members were written: how many were added. */
  added: number | null;
  /** Set once the members were written: how many clients were created. */
  created: number | null;
}

async function chunked<T, R>(items: readonly T[], run: (part: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += LOOKUP_CHUNK)
    out.push(...(await run(items.slice(i, i + LOOKUP_CHUNK))));
  return out;
}

/**
 * Resolves each distinct key of the file to a client of the project, or an error message; with a
 * channel, a phone no client has to a new client of that channel.
 */
async function resolveKeys(
  db: Db,
  projectId: number,
  mode: ImportMode,
  keys: Map<string, RowKey>,
  channel: ImportChannel | null,
): Promise<Map<string, number | string | NewClient>> {
  const result = new Map<string, number | string | NewClient>();
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
    select: { id: true, platformId: true, clientType: true, groupId: true },
  });
  // The chosen channel's own client with a number is that person, whoever else has the number.
  const ofChannel = new Map<string, number>();
  const channelGroup =
    channel && clientIdentity({ clientType: channel.clientType, groupId: channel.groupId, platformId: '' });
  for (const c of byNumber) {
    const digits = phoneDigits(c.platformId);
    if (!wanted.has(digits)) continue;
    note(digits, c.id);
    if (channel && c.clientType === channel.clientType && c.groupId === channelGroup?.groupId)
      ofChannel.set(digits, c.id);
  }
  for (const [text, k] of all) {
    const { digits, reachable } = k as Extract<RowKey, { mode: 'phone' }>;
    const ids = [...(byDigits.get(digits) ?? [])];
    const own = ofChannel.get(digits);
    if (own !== undefined) result.set(text, own);
    else if (ids.length === 1) result.set(text, ids[0]!);
    else if (!ids.length && channel && reachable) result.set(text, { platformId: reachable });
    else if (!ids.length && channel)
      result.set(
        text,
        `${digits} is not a number ${channel.label} can reach: write it in full with its country code (e.g. +44 7700 900123).`,
      );
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
  options: { commit: boolean; channelId?: number },
): Promise<ImportReport> {
  await requireList(db, projectId, listId);
  const channel =
    options.channelId === undefined ? null : await requireImportChannel(db, projectId, options.channelId);
  const text = decodeUtf8(bytes);
  if (text === null) throw new DomainError('invalid', NOT_UTF8, 'file');
  const parsed = parseListCsv(text, { creating: channel !== null });
  if (!parsed.ok) throw new DomainError('invalid', parsed.message, 'file');
  if (channel && parsed.mode !== 'phone')
    throw new DomainError(
      'invalid',
      `New clients are created from a phone column, and this file names clients by ${parsed.mode}. Add a phone column (with name and email if you have them), or import only clients already in the project.`,
      'file',
    );

  const keys = new Map<string, RowKey>();
  let duplicates = 0;
  const rowKeys: (string | null)[] = parsed.rows.map((r) => {
    if (!r.key) return null;
    const t = keyText(r.key);
    if (keys.has(t)) duplicates++;
    else keys.set(t, r.key);
    return t;
  });
  const resolved = await resolveKeys(db, projectId, parsed.mode, keys, channel);
  const keyColumn =
    parsed.mode === 'client_id' ? 'client_id' : parsed.mode === 'phone' ? 'phone' : 'platform_id';

  const errors: RowError[] = [];
  let errorCount = 0;
  const clientIds = new Set<number>();
  /** New clients by number, each with the name and e-mail of the first row giving it. */
  const newClients = new Map<string, { name: string; email: string }>();
  const preview: ImportReport['preview'] = [];
  const seenKeys = new Set<string>();
  parsed.rows.forEach((r, i) => {
    const t = rowKeys[i];
    const found = t === null || t === undefined ? undefined : resolved.get(t);
    let error = r.error;
    let clientId: number | null = null;
    let isNew = false;
    if (typeof found === 'object') {
      isNew = true;
      const person = newClients.get(found.platformId);
      // Two spellings of one new number are one new client: a duplicate row.
      if (person && t && !seenKeys.has(t)) duplicates++;
      newClients.set(found.platformId, {
        name: person?.name || (r.cells.name ?? ''),
        email: person?.email || (r.cells.email ?? ''),
      });
    } else if (typeof found === 'number') {
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
      preview.push({
        row: r.row,
        cells: r.cells,
        clientId,
        ...(isNew && !error ? { isNew: true as const } : {}),
        ...(error ? { error: error.message } : {}),
      });
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
    channel,
    columns: parsed.columns,
    rows: parsed.rows.length,
    duplicates,
    clients: ids.length,
    newClients: newClients.size,
    alreadyMembers: members.length,
    preview,
    errorCount,
    errors,
    added: null,
    created: null,
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
  const written = await db
    .$transaction(
      async (tx) => {
        await requireList(tx, projectId, listId);
        const created = channel ? await createClients(tx, projectId, channel, newClients) : [];
        const added = await addKnownClients(tx, projectId, listId, [...ids, ...created.map((c) => c.id)]);
        return { added, created: created.filter((c) => c.created).length };
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
  return { ...report, ...written };
}

/**
 * The new clients of an import, made as the channel's own first contacts make them
 * (`resolveClients`: their number as the channel stores it), with their name, and their e-mail
 * as the profile's `email` variable. The channel is read again: disconnected since the preview,
 * the import stops.
 */
async function createClients(
  tx: Db,
  projectId: number,
  channel: ImportChannel,
  people: Map<string, { name: string; email: string }>,
) {
  await requireImportChannel(tx, projectId, channel.id);
  const entries = [...people];
  const clients = await resolveClients(
    tx,
    projectId,
    entries.map(([platformId, p]) => ({
      clientType: channel.clientType,
      groupId: channel.groupId,
      platformId,
      name: p.name,
    })),
  );
  const emails = clients.flatMap((c, i) => {
    const email = entries[i]![1].email;
    return c.created && email
      ? [{ projectId, clientId: c.id, name: 'email', value: email, valueKey: valueKey(email) }]
      : [];
  });
  for (let i = 0; i < emails.length; i += LOOKUP_CHUNK)
    await tx.clientVariable.createMany({ data: emails.slice(i, i + LOOKUP_CHUNK), skipDuplicates: true });
  return clients;
}
