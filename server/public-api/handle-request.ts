import type { z } from 'zod';
import { authenticateApiKey } from '@/server/api-keys/api-keys';
import { getEnv } from '@/server/config/env';
import { getDb } from '@/server/db';
import type { ApiAction } from './action';
import { actions } from './actions';
import { actionAliases, renameAliasedParams } from './actions/aliases';
import { ApiError, type ApiReply, errorReply, jsonReply, toApiError } from './api-error';
import { takeToken } from './rate-limit';
import { redactKey } from './redact';
import { type ApiRequest, readParams } from './request-params';

const actionsByName = new Map<string, ApiAction>([
  ...actions.map((a) => [a.name, a as ApiAction] as const),
  ...actionAliases.map((alias) => [alias.name, alias.target] as const),
]);
const ACTION_NAMES = actions.map((a) => a.name).sort();
const ALLOWED_METHODS = new Set(['GET', 'POST']);

/**
 * `/api/{api_key}/{action}`: authenticate, validate, call the action, answer in the §6 format.
 * Transport-neutral: the route handler (fetch-adapter.ts) and the production server
 * (node-adapter.ts) both call it.
 */
export async function answerApiRequest(
  req: ApiRequest,
  apiKey: string,
  actionName: string,
): Promise<ApiReply> {
  const started = Date.now();
  try {
    return await dispatch(req, apiKey, actionName);
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.status === 500) console.error(`[api] ${actionName} failed:`, error);
    // Failures only: a line per success costs the hot path more than its read (stdout is synchronous).
    console.log(
      `[api] ${req.method} /api/${redactKey(apiKey)}/${actionName} ${apiError.status} ${apiError.code} ${Date.now() - started}ms`,
    );
    return errorReply(apiError);
  }
}

async function dispatch(req: ApiRequest, apiKey: string, actionName: string): Promise<ApiReply> {
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
  const db = await getDb();
  const key = await authenticateApiKey(db, apiKey);
  if (!key) {
    throw new ApiError(
      401,
      'invalid_api_key',
      'The API key is not valid: it is unknown or was revoked. Create a key in the project settings.',
    );
  }
  const rate = takeToken(key.keyId, getEnv().BLOCKBOT_API_RATE_LIMIT);
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
  const raw = renameAliasedParams(action.name, await readParams(req));
  const parsed = action.input.safeParse(raw);
  if (!parsed.success) throw invalidParams(parsed.error, raw);
  const result = await action.handle({ db, projectId: key.projectId, plan: key.plan, key }, parsed.data);
  return jsonReply(200, { status: 'success', ...result });
}

function invalidParams(error: z.ZodError, raw: Record<string, unknown>): ApiError {
  // A parameter the request does not have at all is missing; anything else is mistyped.
  const isMissing = (issue: z.core.$ZodIssue) =>
    issue.code === 'invalid_type' && issue.path.length > 0 && raw[String(issue.path[0])] === undefined;
  const lines = error.issues.map((issue) => {
    const field = issue.path.join('.') || 'request';
    return isMissing(issue) ? `${field} is required` : `${field}: ${issue.message}`;
  });
  const code = error.issues.some(isMissing) ? 'missing_parameter' : 'invalid_parameter';
  return new ApiError(400, code, `${lines.join('; ')}.`);
}
