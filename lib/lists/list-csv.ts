import Papa from 'papaparse';
import { phoneDigits, reachableNumber } from '@/lib/channels/phone-numbers';

/**
 * Reading a list-members CSV (docs/lists.md), pure: bytes in, the rows' keys and the per-row
 * errors out. The server resolves the keys to clients (server/contacts/list-import.ts).
 */

/** Rows a file may hold (beyond the header). Above it the whole file is refused: split it. */
export const MAX_IMPORT_ROWS = 100_000;
/** Bytes a file may hold: 100,000 rows of a phone, a name and a few more columns fit easily. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** Row errors sent back to the browser; the total is counted beyond it. */
export const MAX_REPORTED_ERRORS = 200;
/** Rows shown in the preview. */
export const PREVIEW_ROWS = 10;

export type ImportMode = 'client_id' | 'platform_id' | 'phone';

/**
 * The columns a file's header may name; others are ignored (and shown as ignored). `name` and
 * `email` (also written `e-mail`) are read only when the import creates new clients.
 */
export const KNOWN_COLUMNS = [
  'client_id',
  'platform_id',
  'client_type',
  'group_id',
  'phone',
  'name',
  'email',
] as const;
export type KnownColumn = (typeof KNOWN_COLUMNS)[number];

export interface RowError {
  /** The row's number in the file, the header being row 1 (as a spreadsheet shows it). */
  row: number;
  /** The column at fault, as named in the header; absent for a row-wide problem. */
  column?: string;
  message: string;
}

export type RowKey =
  | { mode: 'client_id'; clientId: number }
  | { mode: 'platform_id'; platformId: string; clientType: number; groupId?: string }
  | {
      mode: 'phone';
      digits: string;
      /** The number in E.164 without the plus when a messenger can reach it (a new client may have it). */
      reachable: string | null;
    };

export interface ParsedRow {
  row: number;
  /** The mapped cells, by column name, for the preview. */
  cells: Partial<Record<KnownColumn, string>>;
  key: RowKey | null;
  error?: RowError;
}

export type ParseResult =
  | { ok: false; message: string }
  | {
      ok: true;
      mode: ImportMode;
      /** The header's columns in order, each with what it is used for (`ignored` otherwise). */
      columns: { name: string; use: KnownColumn | 'ignored' }[];
      rows: ParsedRow[];
    };

const MAX_CLIENT_ID = 2_147_483_647;
const MAX_PLATFORM_ID = 200;
/** A new client's name and e-mail, as the profile keeps them. */
export const MAX_NAME = 200;
const MAX_EMAIL = 254;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Decodes the file as UTF-8, refusing anything else (a byte order mark is dropped). */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

const normalizeHeader = (h: string) => {
  const name = h.trim().toLowerCase().replace(/\s+/g, '_');
  return name === 'e-mail' || name === 'e_mail' ? 'email' : name;
};

function chooseMode(header: string[]): { mode: ImportMode } | { message: string } {
  const has = (c: KnownColumn) => header.includes(c);
  if (has('client_id')) return { mode: 'client_id' };
  if (has('platform_id')) {
    if (!has('client_type'))
      return {
        message:
          'Column client_type is missing: a platform_id names a client only with its messenger (client_type, e.g. 1 for Telegram). Add the column, or use client_id or phone.',
      };
    return { mode: 'platform_id' };
  }
  if (has('phone')) return { mode: 'phone' };
  return {
    message: `The header row must name client_id, or platform_id and client_type (and group_id if needed), or phone. Found: ${
      header.filter(Boolean).slice(0, 10).join(', ') || 'no column names'
    }.`,
  };
}

const USED: Record<ImportMode, readonly KnownColumn[]> = {
  client_id: ['client_id'],
  platform_id: ['platform_id', 'client_type', 'group_id'],
  phone: ['phone'],
};
/** What a new client is created with, besides its number. */
const NEW_CLIENT_COLUMNS: readonly KnownColumn[] = ['name', 'email'];

/** A new client's name and e-mail: checked only when the import creates clients. */
function newClientError(row: number, cells: ParsedRow['cells']): RowError | undefined {
  if ((cells.name ?? '').length > MAX_NAME)
    return { row, column: 'name', message: `is longer than ${MAX_NAME} characters.` };
  const email = cells.email ?? '';
  if (email && (email.length > MAX_EMAIL || !EMAIL.test(email)))
    return { row, column: 'email', message: `"${email.slice(0, 40)}" is not an e-mail address.` };
  return undefined;
}

function rowKey(mode: ImportMode, row: number, cells: ParsedRow['cells']): Omit<ParsedRow, 'row' | 'cells'> {
  const fail = (column: string, message: string) => ({ key: null, error: { row, column, message } });
  if (mode === 'client_id') {
    const raw = cells.client_id ?? '';
    if (!raw) return fail('client_id', 'is empty; give the client_id (a whole number).');
    if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_CLIENT_ID)
      return fail('client_id', `"${raw.slice(0, 40)}" is not a client_id (a positive whole number).`);
    return { key: { mode, clientId: Number(raw) } };
  }
  if (mode === 'platform_id') {
    const platformId = cells.platform_id ?? '';
    const type = cells.client_type ?? '';
    if (!platformId) return fail('platform_id', 'is empty; give the client’s id in its messenger.');
    if (platformId.length > MAX_PLATFORM_ID)
      return fail('platform_id', `is longer than ${MAX_PLATFORM_ID} characters.`);
    if (!/^\d{1,3}$/.test(type))
      return fail('client_type', `"${type.slice(0, 40)}" is not a messenger number (client_type, e.g. 1).`);
    return {
      key: {
        mode,
        platformId,
        clientType: Number(type),
        ...(cells.group_id ? { groupId: cells.group_id } : {}),
      },
    };
  }
  const raw = cells.phone ?? '';
  if (!raw) return fail('phone', 'is empty; give a phone number.');
  const digits = phoneDigits(raw);
  if (digits.length < 5 || digits.length > 15)
    return fail('phone', `"${raw.slice(0, 40)}" is not a phone number (5 to 15 digits).`);
  return { key: { mode, digits, reachable: reachableNumber(raw) } };
}

/**
 * Parses the text of a CSV (comma, semicolon or tab separated, as papaparse detects): the header
 * chooses the mode, each data row gets its key or an error naming its row and column. With
 * `creating` (new clients are made of the numbers no client has), a phone file's `name` and
 * `email` columns are read and checked too.
 */
export function parseListCsv(text: string, options: { creating?: boolean } = {}): ParseResult {
  if (!text.trim())
    return { ok: false, message: 'The file is empty: it needs a header row and one row per client.' };
  // One row more than allowed tells a too long file without reading it all.
  const parsed = Papa.parse<string[]>(text, { preview: MAX_IMPORT_ROWS + 2, skipEmptyLines: false });
  const data = parsed.data;
  const header = (data[0] ?? []).map(normalizeHeader);
  const mode = chooseMode(header);
  if ('message' in mode) return { ok: false, message: mode.message };
  const creating = options.creating === true && mode.mode === 'phone';
  const used = creating ? [...USED[mode.mode], ...NEW_CLIENT_COLUMNS] : USED[mode.mode];
  const index = new Map<KnownColumn, number>();
  const columns = header.map((name, i) => {
    const known = (KNOWN_COLUMNS as readonly string[]).includes(name) ? (name as KnownColumn) : null;
    if (known && used.includes(known) && !index.has(known)) {
      index.set(known, i);
      return { name: data[0]?.[i]?.trim() ?? name, use: known };
    }
    return { name: data[0]?.[i]?.trim() ?? name, use: 'ignored' as const };
  });
  // papaparse reports rows by their index in the data (0 is the header).
  const parseErrors = new Map<number, string>();
  for (const e of parsed.errors)
    if (e.row !== undefined && !parseErrors.has(e.row) && e.type === 'Quotes')
      parseErrors.set(e.row, 'has a quote (") that is never closed; close it or remove it.');
  const rows: ParsedRow[] = [];
  for (let i = 1; i < data.length; i++) {
    const cellsRaw = data[i] ?? [];
    if (cellsRaw.every((c) => !c.trim())) continue;
    const row = i + 1;
    const cells: ParsedRow['cells'] = {};
    for (const [name, at] of index) cells[name] = (cellsRaw[at] ?? '').trim();
    const quoteError = parseErrors.get(i);
    if (quoteError) {
      rows.push({ row, cells, key: null, error: { row, message: quoteError } });
      continue;
    }
    const parsedRow: ParsedRow = { row, cells, ...rowKey(mode.mode, row, cells) };
    const error = parsedRow.error ?? (creating ? newClientError(row, cells) : undefined);
    rows.push(error ? { row, cells, key: null, error } : parsedRow);
  }
  if (rows.length > MAX_IMPORT_ROWS)
    return {
      ok: false,
      message: `The file has more than ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows; a list is imported ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows at a time. Split the file and import each part.`,
    };
  return { ok: true, mode: mode.mode, columns, rows };
}

/** The same key for the same client reference, for counting duplicate rows. */
export function keyText(key: RowKey): string {
  if (key.mode === 'client_id') return `c:${key.clientId}`;
  if (key.mode === 'phone') return `p:${key.digits}`;
  return `m:${key.clientType}:${(key.groupId ?? '').toLowerCase()}:${key.platformId}`;
}

export const NOT_UTF8 =
  'The file is not UTF-8 text. Save it as UTF-8 (in Excel: "CSV UTF-8"; in LibreOffice: character set "Unicode (UTF-8)") and upload it again.';

/** The error lines of an import as a person reads them: "Row 5, column client_id: …". */
export const rowErrorText = (e: RowError) =>
  `Row ${e.row}${e.column ? `, column ${e.column}` : ''}: ${e.message}`;
