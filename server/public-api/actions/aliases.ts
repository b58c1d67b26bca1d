import type { ApiAction } from '../action';
import type { RawParams } from '../request-params';
import { channelCheckAliases } from './channel-checks';
import { chatappClientId } from './lookups';
import { chatappCallback, chatappMessage } from './messaging';

/**
 * The messenger-named actions of the commercial platform whose interface we match: client
 * libraries and scripts written for it call these names, so each runs its interface action.
 * Deprecated: the OpenAPI document lists them as such and points to the interface's name.
 */
export interface ActionAlias {
  name: string;
  target: ApiAction;
}

export const actionAliases: readonly ActionAlias[] = [
  { name: 'whatsapp_callback', target: chatappCallback as ApiAction },
  { name: 'whatsapp_message', target: chatappMessage as ApiAction },
  { name: 'whatsapp_client_id', target: chatappClientId as ApiAction },
  // The channel modules' checks under their old names (check_whatsapp…).
  ...channelCheckAliases,
];

/** Old parameter name → the interface's, per interface action, whichever name the call used. */
export const parameterAliases: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  chatapp_message: { whatsapp_bot_id: 'chatapp_bot_id' },
};

/**
 * Renames the old parameters of a call before validation; when a call sends both names, the
 * interface's wins and the old one is dropped (it would otherwise be saved as a variable).
 */
export function renameAliasedParams(actionName: string, params: RawParams): RawParams {
  const aliases = parameterAliases[actionName];
  if (!aliases) return params;
  for (const [old, current] of Object.entries(aliases)) {
    if (params[old] === undefined) continue;
    params[current] ??= params[old];
    delete params[old];
  }
  return params;
}
