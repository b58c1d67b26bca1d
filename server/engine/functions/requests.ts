import type { Value } from '@/lib/formula';
import { urlSafeSecretRefs } from '@/lib/secrets/secret-refs';
import { NUL_REPLACED, replaceNul } from '@/lib/storable-reply';
import type { HttpClient } from '@/server/engine/block-request';
import { asRecord, asString, given, jsonToValue, valueToJson } from './values';

/**
 * requests_get/post/put/patch/delete (platform-interface.md): positional parameters, `None`
 * skips one, `0` skips `auth`; answer_type picks what the formula gets back.
 */
const SIGNATURES = {
  requests_get: ['url', 'answer_type', 'headers', 'params', 'auth', 'proxy'],
  requests_post: ['url', 'answer_type', 'headers', 'data', 'json_data', 'auth', 'proxy'],
  requests_put: ['url', 'answer_type', 'headers', 'data', 'auth', 'proxy', 'data_is_json'],
  requests_patch: ['url', 'answer_type', 'headers', 'data', 'auth', 'proxy'],
  requests_delete: ['url', 'answer_type', 'headers', 'data', 'json_data', 'auth', 'proxy'],
} as const;

export type RequestFunction = keyof typeof SIGNATURES;

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** `auth`: a [user, password] pair or "user:password" → Basic; 0 or None → none. */
function authorization(auth: Value | undefined): string | undefined {
  if (!given(auth) || auth === 0 || auth === '0') return undefined;
  if (Array.isArray(auth) && auth.length === 2)
    return `Basic ${base64(`${String(auth[0])}:${String(auth[1])}`)}`;
  if (typeof auth === 'string')
    return auth.includes(':') && !auth.includes(' ') ? `Basic ${base64(auth)}` : auth;
  throw new Error('auth must be a [user, password] list, "user:password", or 0 to skip it');
}

/** `note` receives what the run's log should say about the call (a reply that had to be changed). */
export async function callRequestFunction(
  name: RequestFunction,
  args: Value[],
  http: HttpClient,
  note: (message: string) => void = () => {},
): Promise<Value> {
  const named = Object.fromEntries(SIGNATURES[name].map((p, i) => [p, args[i]])) as Record<
    string,
    Value | undefined
  >;
  if (args.length > SIGNATURES[name].length) {
    throw new Error(
      `${name}() takes at most ${SIGNATURES[name].length} arguments (${SIGNATURES[name].join(', ')})`,
    );
  }
  // A reference written in the URL would read as its fragment: as a sentinel it stays in place.
  const url = new URL(urlSafeSecretRefs(asString(named.url, 'url')));
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(asRecord(named.headers, 'headers') ?? {}))
    headers[k.toLowerCase()] = String(v);
  const auth = authorization(named.auth);
  if (auth) headers.authorization = auth;
  for (const [k, v] of Object.entries(asRecord(named.params, 'params') ?? {}))
    url.searchParams.append(k, String(v));

  let body: string | undefined;
  const jsonData = named.json_data;
  const data = named.data;
  if (given(jsonData) && given(data)) throw new Error('give data or json_data, not both');
  const dataIsJson = given(named.data_is_json) && String(named.data_is_json) === '1';
  if (given(jsonData) || (dataIsJson && given(data))) {
    const payload = given(jsonData) ? jsonData : data!;
    body = typeof payload === 'string' ? payload : JSON.stringify(valueToJson(payload));
    headers['content-type'] ??= 'application/json';
  } else if (given(data)) {
    if (data instanceof Map) {
      body = new URLSearchParams(
        Object.entries(valueToJson(data) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      ).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else {
      body = String(data);
    }
  }
  const method = name.slice('requests_'.length).toUpperCase();
  const proxy = given(named.proxy) ? String(named.proxy) : undefined;
  const response = await http(url.toString(), { method, headers, body, proxy });

  const answerType = given(named.answer_type) ? String(named.answer_type) : '';
  if (answerType === 'status') return response.status;
  const reply = replaceNul(response.body);
  if (reply.replaced) note(NUL_REPLACED);
  if (answerType === 'text') return reply.text;
  let parsed: Value;
  try {
    parsed = jsonToValue(JSON.parse(reply.text));
  } catch {
    if (answerType === 'json') throw new Error(`the reply is not JSON (status ${response.status})`);
    parsed = reply.text;
  }
  if (answerType === 'json') return parsed;
  return new Map<string, Value>([
    ['status', response.status],
    ['data', parsed],
  ]);
}
