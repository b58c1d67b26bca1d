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

/** Reads an API request's parameters: the query string and a JSON or form-encoded body, merged (body wins). */
export async function readParams(req: ApiRequest): Promise<RawParams> {
  const params: RawParams = Object.create(null);
  if (req.query) for (const [key, value] of new URLSearchParams(req.query)) params[key] = value;
  if (req.method !== 'GET' && req.method !== 'HEAD') Object.assign(params, await readBody(req));
  return params;
}

async function readBody(req: ApiRequest): Promise<RawParams> {
  if (Number(req.contentLength ?? '0') > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readCapped(req.body);
  if (bytes.length === 0) return {};
  const text = new TextDecoder().decode(bytes);
  const contentType = req.contentType ?? '';
  const type = contentType.toLowerCase();
  if (type.includes('application/x-www-form-urlencoded')) return formToParams(new URLSearchParams(text));
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
    return Object.fromEntries([...form].map(([k, v]) => [k, typeof v === 'string' ? v : v.name]));
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
  return Object.assign(Object.create(null), parsed as RawParams);
}

/** Form fields; `a[]=1&a[]=2` and repeated keys become lists. */
function formToParams(form: URLSearchParams): RawParams {
  const params: RawParams = Object.create(null);
  for (const [rawKey, value] of form) {
    const isList = rawKey.endsWith('[]');
    const key = isList ? rawKey.slice(0, -2) : rawKey;
    const existing = params[key];
    if (existing === undefined) params[key] = isList ? [value] : value;
    else params[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return params;
}

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

/**
 * Interface rule 3: `value_client_id=<name>` plus `<name>: <id>` is the same as `client_id: <id>`.
 * `targets` names the parameter an action takes an identifier as, when not under its own name.
 */
export function applyUniversalMapping(
  params: RawParams,
  targets: Partial<Record<UniversalField, string>> = {},
): RawParams {
  for (const field of UNIVERSAL_FIELDS) {
    const source = params[`value_${field}`];
    if (typeof source !== 'string' || !source) continue;
    if (!(source in params)) {
      throw new ApiError(
        400,
        'missing_parameter',
        `value_${field} names the parameter "${source}", but the request has no parameter "${source}".`,
      );
    }
    params[targets[field] ?? field] = params[source];
    delete params[`value_${field}`];
  }
  return params;
}
