import { declaredParams, textParam } from '@/lib/api-params';
import { findClientIdsByIdentifiers } from '@/server/contacts/client-lookup';
import type { Db } from '@/server/db/client-type';
import type { ApiAction } from './action';
import { ApiError } from './api-error';
import { API_PARSE } from './param-errors';
import type { GivenIdentifiers, LocatingField, RawParams } from './request-params';

/** A client method takes client_id: universal-webhook identifiers locate its client instead. */
export const isClientMethod = (action: ApiAction) => declaredParams(action.input).includes('client_id');

/** What an operation of a client method says of locating its client (the reference page). */
export const LOCATING_DOC =
  "Without `client_id`, the client is located by the identifiers of universal-webhook mode: `value_phone`, `value_email` or `value_user_id` (with `value_group_id` to keep one channel) name the parameter that holds it. A phone or an e-mail is searched in the clients' variables (and chat-app numbers), a user_id is the client's id in its messenger. No client: 404 `client_not_found`; several: 409 `ambiguous_client`.";

/** Clients an ambiguous identifier's error lists. */
const LISTED_CLIENTS = 10;

const LABELS: Record<LocatingField, string> = {
  phone: 'the phone',
  email: 'the e-mail',
  user_id: 'the user_id',
  group_id: 'the group_id',
};

/** A value as an error quotes it: never a long echo of the caller's input. */
const quoted = (value: string) => JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);

/**
 * The client of a client method called without client_id (platform-interface, universal webhook
 * mode, rules 2-3; callback's client_phone and client_email): the one client that any of the
 * phone, e-mail and user_id matches (a phone or an e-mail through the client's variables and
 * chat-app number, a user_id as its messenger's id), of the channel group_id when given. Null
 * when no identifier was given; 404 when no client matches, 409 when several do. The errors
 * name each identifier by the parameter that held it.
 */
export async function locateClient(
  db: Db,
  projectId: number,
  action: ApiAction,
  params: RawParams,
  universal: GivenIdentifiers,
): Promise<number | null> {
  const given: [LocatingField, { param: string; value: string }][] = [];
  const own = Object.entries(action.clientLocators ?? {}) as [LocatingField, string][];
  const sources: GivenIdentifiers = {
    ...Object.fromEntries(own.map(([field, param]) => [field, { param, value: params[param] }])),
    ...universal,
  };
  for (const [field, source] of Object.entries(sources) as [
    LocatingField,
    { param: string; value: unknown },
  ][]) {
    // Client libraries send unused parameters empty: not given.
    if (source.value === undefined || source.value === null || source.value === '') continue;
    const text = textParam().safeParse(source.value, API_PARSE);
    if (!text.success) {
      throw new ApiError(400, 'invalid_parameter', `${source.param}: ${text.error.issues[0].message}.`);
    }
    given.push([field, { param: source.param, value: text.data }]);
  }
  if (given.length === 0) return null;
  const byField = Object.fromEntries(given.map(([field, source]) => [field, source.value]));
  const group = given.find(([field]) => field === 'group_id')?.[1];
  const searched = given.filter(([field]) => field !== 'group_id');
  if (searched.length === 0) {
    throw new ApiError(
      400,
      'missing_parameter',
      `${group?.param} (the group_id) only narrows the search to one channel: name the client's phone, e-mail or user_id too (value_phone, value_email, value_user_id), or send client_id.`,
    );
  }
  const ids = await findClientIdsByIdentifiers(
    db,
    projectId,
    { phone: byField.phone, email: byField.email, platformId: byField.user_id, groupId: byField.group_id },
    LISTED_CLIENTS + 1,
  );
  const what = searched
    .map(([field, source]) => `${LABELS[field]} ${quoted(source.value)} (${source.param})`)
    .join(' or ');
  const where = group ? ` in the channel ${quoted(group.value)} (${group.param})` : '';
  if (ids.length === 0) {
    throw new ApiError(
      404,
      'client_not_found',
      `No client in this project has ${what}${where}. Check the value, or send client_id.`,
    );
  }
  if (ids.length > 1) {
    const count = ids.length > LISTED_CLIENTS ? `More than ${LISTED_CLIENTS}` : String(ids.length);
    throw new ApiError(
      409,
      'ambiguous_client',
      `${count} clients have ${what}${where}: ${ids.slice(0, LISTED_CLIENTS).join(', ')}. Send client_id${group ? '' : ', or name the channel with value_group_id'}.`,
    );
  }
  return ids[0];
}
