import { declaredParams, dropEmptyParams, nulBytePath } from '@/lib/api-params';
import { clientAddress } from '@/lib/client-address';
import { wellFormed } from '@/lib/storable-json';
import { getEnv } from '@/server/config/env';
import { getDb, openedDb } from '@/server/db';
import type { PrismaClient } from '@/server/db/client-type';
import { logFor } from '@/server/log';
import { metrics } from '@/server/metrics/metrics';
import { type AuthenticatedKey, authenticateApiKey, cachedApiKey } from '@/server/projects/api-keys';
import type { ApiAction } from './action';
import { actions } from './actions';
import { actionAliases, parameterAliases, renameAliasedParams } from './actions/aliases';
import { ApiError, type ApiReply, errorReply, jsonReply, toApiError } from './api-error';
import { allowedOriginsOf, answerPreflight, withCors } from './cors';
import { isClientMethod, locateClient } from './locate-client';
import { API_PARSE, invalidParams } from './param-errors';
import { countFailedKeyLookup, takeToken } from './rate-limit';
import { redactKey } from './redact';
import {
  type ApiRequest,
  applyUniversalMapping,
  carriesBody,
  queryParams,
  readParams,
} from './request-params';

const log = logFor('api');

const actionsByName = new Map<string, ApiAction>([
  ...actions.map((a) => [a.name, a as ApiAction] as const),
  ...actionAliases.map((alias) => [alias.name, alias.target] as const),
]);
const ACTION_NAMES = actions.map((a) => a.name).sort();
/** Client methods (they take client_id): universal-webhook identifiers locate their client. */
const clientMethods = new Set<ApiAction>((actions as ApiAction[]).filter(isClientMethod));
const ALLOWED_METHODS = new Set(['GET', 'POST']);
/** Each action's parameters, its aliases' included: an empty one is dropped (lib/api-params.ts). */
const paramNames = new Map<ApiAction, string[]>(
  (actions as ApiAction[]).map((a) => [
    a,
    [...declaredParams(a.input), ...Object.keys(parameterAliases[a.name] ?? {})],
  ]),
);

/**
 * `/api/{api_key}/{action}`: authenticate, validate, call the action, answer in the §6 format.
 * Transport-neutral: the route handler (fetch-adapter.ts) and the production server
 * (node-adapter.ts) both call it. Promise chains rather than async functions on this path: with
 * AsyncLocalStorage in use, every promise costs a hook (Node 20), and an async function makes one
 * more per await.
 */
export function answerApiRequest(req: ApiRequest, apiKey: string, actionName: string): Promise<ApiReply> {
  const started = Date.now();
  const counted = (reply: ApiReply) => {
    // A name that is no action is counted as `unknown`: the label's values stay the actions'.
    const action = actionsByName.has(actionName) ? actionName : 'unknown';
    metrics().apiRequests.inc({ action, status: String(reply.status) });
    return reply;
  };
  if (req.method === 'OPTIONS')
    return answerPreflight(apiKey, req.origin, req.requestedHeaders).then(counted);
  const call: KeyOfCall = {};
  return dispatch(req, apiKey, actionName, call).then(
    (reply) => counted(withCors(reply, req.origin, call.key?.allowedOrigins ?? [])),
    (error) => failed(error, req, apiKey, actionName, call, started).then(counted),
  );
}

async function failed(
  error: unknown,
  req: ApiRequest,
  apiKey: string,
  actionName: string,
  call: KeyOfCall,
  started: number,
): Promise<ApiReply> {
  const apiError = toApiError(error);
  if (apiError.status === 500) log.error({ err: error, action: actionName }, `${actionName} failed`);
  // Failures only: a line per success costs the hot path more than its read (stdout is
  // synchronous). The key is shown redacted, never whole.
  const durationMs = Date.now() - started;
  log.info(
    { action: actionName, status: apiError.status, code: apiError.code, durationMs },
    `${req.method} /api/${redactKey(apiKey)}/${actionName} ${apiError.status} ${apiError.code} ${durationMs}ms`,
  );
  // An error before the key was looked up (an unknown action) asks the key's project too.
  const allowed =
    call.key === undefined && req.origin
      ? await allowedOriginsOf(apiKey).catch(() => [])
      : (call.key?.allowedOrigins ?? []);
  return withCors(errorReply(apiError), req.origin, allowed);
}

/** The call's key once looked up (null: not valid), for the CORS headers of its answer. */
interface KeyOfCall {
  key?: AuthenticatedKey | null;
}

async function dispatch(
  req: ApiRequest,
  apiKey: string,
  actionName: string,
  call: KeyOfCall,
): Promise<ApiReply> {
  const action = actionsByName.get(actionName);
  if (!action) {
    throw new ApiError(
      404,
      'unknown_action',
      `There is no action "${actionName}". Valid actions: ${ACTION_NAMES.join(', ')}.`,
    );
  }
  if (!ALLOWED_METHODS.has(req.method)) {
    throw new ApiError(405, 'method_not_allowed', `${actionName} accepts GET and POST, not ${req.method}.`, {
      Allow: 'GET, POST',
    });
  }
  const db = openedDb() ?? (await getDb());
  // A valid key is always served; only failures count against the address, so nobody can lock a key out.
  const key = cachedApiKey(apiKey) ?? (await authenticateApiKey(db, apiKey));
  call.key = key;
  if (!key) throw await invalidKey(db, clientAddress(req.addressChain, getEnv().BLOCKBOT_TRUSTED_PROXIES));
  const rate = await takeToken(db, key.keyId, getEnv().BLOCKBOT_API_RATE_LIMIT);
  if (!rate.allowed) {
    throw new ApiError(
      429,
      'rate_limited',
      `Too many requests for this key. Retry in ${rate.retryAfter} s.`,
      {
        'Retry-After': String(rate.retryAfter),
      },
    );
  }
  // A GET's parameters are all in its query: read without a promise.
  const params = carriesBody(req) ? await readParams(req) : queryParams(req);
  const locates = clientMethods.has(action);
  const universal = applyUniversalMapping(params, locates);
  const emptied = dropEmptyParams(params, paramNames.get(action) ?? []);
  const raw = renameAliasedParams(action.name, params);
  refuseNulBytes(raw);
  if (locates && raw.client_id === undefined) {
    const clientId = await locateClient(db, key.projectId, action, raw, universal);
    if (clientId !== null) raw.client_id = clientId;
  }
  const parsed = action.input.safeParse(raw, API_PARSE);
  if (!parsed.success) throw invalidParams(action.input, parsed.error, raw, emptied);
  // Again after parsing: JSON text (variables, buttons) can carry one as \u0000.
  refuseNulBytes(parsed.data);
  // Half an emoji (a lone surrogate, which JSON lets a client send as "\ud83d") is taken with
  // U+FFFD in its place, as text columns store it: jsonb (buttons, submissions) refuses it.
  const input = wellFormed(parsed.data);
  const result = await action.handle({ db, projectId: key.projectId, plan: key.plan, key }, input);
  return jsonReply(200, { status: 'success', ...result });
}

function refuseNulBytes(params: unknown) {
  const path = nulBytePath(params);
  if (path !== null) {
    throw new ApiError(
      400,
      'invalid_parameter',
      `${path} contains a NUL character (\\u0000), which text cannot hold: remove it.`,
    );
  }
}

async function invalidKey(db: PrismaClient, address: string): Promise<ApiError> {
  const failures = await countFailedKeyLookup(db, address);
  if (!failures.allowed) {
    return new ApiError(
      429,
      'rate_limited',
      `The API key is not valid, and too many invalid keys came from your address: retry in ${failures.retryAfter} s, with a key from the API keys tab of your project.`,
      { 'Retry-After': String(failures.retryAfter) },
    );
  }
  return new ApiError(
    401,
    'invalid_api_key',
    'The API key is not valid: it is unknown or was revoked. Create one on the API keys tab of your project (a key is shown once, when it is created).',
  );
}
