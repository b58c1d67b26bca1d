import qs from 'qs';
import { nullRecord } from '@/lib/null-record';
import { ApiError } from './api-error';

/** Bodies above this are refused with 413 before they are parsed. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Identifiers that universal-webhook mode can take from a field of the caller's choosing. */
export const UNIVERSAL_FIELDS = ['client_id', 'phone', 'email', 'user_id', 'group_id'] as const;
export type UniversalField = (typeof UNIVERSAL_FIELDS)[number];

export type RawParams = Record<string, unknown>;

/** What the public API needs of an HTTP request, whichever server received it. */
export interface ApiRequest {
  method: string;
  /** The query string, with or without its leading `?`. */
  query: string;
  contentType: string | null;
  contentLength: string | null;
  /** The body's bytes as they arrive; null when there is none. */
  body: AsyncIterable<Uint8Array> | null;
  /** The Origin header, sent by browsers: the answer carries CORS headers when the project allows it. */
  origin: string | null;
  /** A browser's preflight (OPTIONS) lists here the headers its call will send. */
  requestedHeaders: string | null;
  /** X-Forwarded-For's entries, then the connection's peer address when the server knows it. */
  addressChain: string[];
}

/**
 * Reads an API request's parameters: the query string and a JSON, urlencoded or multipart body,
 * merged (body wins).
 */
export async function readParams(req: ApiRequest): Promise<RawParams> {
  const params = queryParams(req);
  if (carriesBody(req)) Object.assign(params, await readBody(req));
  return params;
}

/** Whether the request's body is read for parameters (a GET's or a HEAD's is not). */
export const carriesBody = (req: ApiRequest): boolean => req.method !== 'GET' && req.method !== 'HEAD';

/** The parameters of the request's query string alone: all there are when it carries no body. */
export const queryParams = (req: ApiRequest): RawParams => fieldsToParams(new URLSearchParams(req.query));

async function readBody(req: ApiRequest): Promise<RawParams> {
  if (Number(req.contentLength ?? '0') > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readCapped(req.body);
  if (bytes.length === 0) return {};
  const text = new TextDecoder().decode(bytes);
  const contentType = req.contentType ?? '';
  const type = contentType.toLowerCase();
  if (type.includes('application/x-www-form-urlencoded')) return fieldsToParams(new URLSearchParams(text));
  if (type.includes('multipart/form-data')) {
    // The boundary is case-sensitive: hand over the header as it came.
    const form = await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
      headers: { 'content-type': contentType },
    })
      .formData()
      .catch(() => {
        throw new ApiError(
          400,
          'invalid_body',
          'The multipart body cannot be read: check that its parts are separated by the boundary named in Content-Type.',
        );
      });
    // A file part stands for its file name: the API takes files by URL (attachment_url).
    return fieldsToParams([...form].map(([k, v]) => [k, typeof v === 'string' ? v : v.name]));
  }
  // JSON is the default, whatever the content type says: integrators often forget the header.
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ApiError(
      400,
      'invalid_body',
      `The request body is not valid JSON (${(error as Error).message}). Send a JSON object, or a form-encoded body with Content-Type: application/x-www-form-urlencoded.`,
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError(400, 'invalid_body', 'The request body must be a JSON object of parameters.');
  }
  return Object.assign(nullRecord(), parsed as RawParams);
}

/** Distinct field names per query string or form body (a repeated name counts once). */
export const MAX_FORM_FIELDS = 2_500;
/** Items of a list written with indices (`a[0]=x&a[1]=y`) or nested (`a[b][]=x`). */
export const MAX_INDEXED_ITEMS = 500;

/**
 * qs, kept safe: `__proto__` is dropped and every object has no prototype, so `constructor` is
 * plain data. Nested lists cost qs time per item times the highest index (5.7 s for 10,000
 * indexed items), hence the caps above: at most about 0.1 s for a worst-case 1 MiB body.
 */
const QS_OPTIONS: qs.IParseOptions = {
  allowPrototypes: false,
  plainObjects: true,
  depth: 5,
  arrayLimit: MAX_INDEXED_ITEMS,
  throwOnLimitExceeded: true,
};

/**
 * Fields of a query string, urlencoded or multipart body as parameters, PHP/Rails-style:
 * `a[b]=1` is {a: {b: '1'}}, `a[]=1` and a repeated name are lists, `a[0][text]=x` is
 * [{text: 'x'}]. The bracket syntax is qs's; a plain repeated name (`a=1&a=2`, `a[]=1`) is
 * grouped here first, so a list of any length costs one pass (qs copies it on each repeat) and
 * meets its action's own cap (too_many_items) rather than qs's.
 */
export function fieldsToParams(fields: Iterable<[string, string]>): RawParams {
  // Fields by their parameter (the name before any bracket), so a refusal can name it.
  const byName = new Map<string, Record<string, string | string[]>>();
  let distinct = 0;
  for (const [field, value] of fields) {
    const isList = /^[^[\]]+\[\]$/.test(field);
    const key = isList ? field.slice(0, -2) : field;
    const name = key.split('[')[0];
    let group = byName.get(name);
    if (!group) {
      group = nullRecord<string | string[]>();
      byName.set(name, group);
    }
    const existing = group[key];
    if (existing === undefined) {
      if (++distinct > MAX_FORM_FIELDS) throw tooManyFields();
      group[key] = isList ? [value] : value;
    } else if (Array.isArray(existing)) existing.push(value);
    else group[key] = [existing, value];
  }
  const params: RawParams = nullRecord();
  for (const [name, group] of byName) {
    const plain = group[name];
    // A field without brackets given once is its value, as qs gives it (which drops an empty
    // name and `__proto__`); qs is asked only for the rest.
    if (typeof plain === 'string' && Object.keys(group).length === 1) {
      if (name !== '' && name !== '__proto__') params[name] = plain;
      continue;
    }
    try {
      // A grouped list is given as an array value: qs takes it as already parsed.
      Object.assign(params, qs.parse(group as Record<string, string>, QS_OPTIONS));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new ApiError(
        400,
        'too_many_items',
        `${name}: at most ${MAX_INDEXED_ITEMS} items in a list written with indices (${name}[0], ${name}[1], ...) or inside another field. Send a longer list as repeated ${name}[] fields or as JSON.`,
      );
    }
  }
  return params;
}

const tooManyFields = () =>
  new ApiError(
    400,
    'too_many_parameters',
    `The request has more than ${MAX_FORM_FIELDS} fields. Send long lists as repeated name[] fields or as JSON, or fewer items per call.`,
  );

/** Reads the body, stopping (and leaving the rest unread) once it passes the cap. */
async function readCapped(body: AsyncIterable<Uint8Array> | null): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

const tooLarge = () =>
  new ApiError(
    413,
    'body_too_large',
    `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB. Send fewer items per call.`,
  );

/** An identifier that locates a client method's client (all but client_id). */
export type LocatingField = Exclude<UniversalField, 'client_id'>;

/** Identifiers given to locate a client: each value with the parameter that held it, for errors. */
export type GivenIdentifiers = Partial<Record<LocatingField, { param: string; value: unknown }>>;

/** Each universal field with the parameter that names its source (`value_phone`), written once. */
const VALUE_FIELDS = UNIVERSAL_FIELDS.map((field) => [field, `value_${field}`] as const);

/**
 * Interface rules 2-3: `value_X=<name>` says that the parameter <name> holds the identifier X.
 * client_id is then read as client_id (rule 3). The others: an action that takes the identifier
 * under its own name (tg_callback's user_id, find_client_id_by_phone's phone) reads it as that; a
 * client method (`locatesClient`, one that takes client_id) is handed them, returned, to locate
 * its client with (locate-client.ts).
 */
export function applyUniversalMapping(params: RawParams, locatesClient: boolean): GivenIdentifiers {
  const given: GivenIdentifiers = {};
  for (const [field, valueField] of VALUE_FIELDS) {
    const source = params[valueField];
    if (typeof source !== 'string' || !source) continue;
    if (!(source in params)) {
      throw new ApiError(
        400,
        'missing_parameter',
        `value_${field} names the parameter "${source}", but the request has no parameter "${source}".`,
      );
    }
    delete params[valueField];
    if (field === 'client_id' || !locatesClient) params[field] = params[source];
    else given[field] = { param: source, value: params[source] };
  }
  return given;
}
