import { broadcast } from './broadcast';
import { channelChecks } from './channel-checks';
import { assignToUser, getClients, loadClients, subscribers } from './clients';
import { clearHistoryAction, getHistoryAction } from './history';
import { addToListAction, removeFromListAction, setOrderState } from './lists-crm';
import {
  chatappClientId,
  findClientIdByEmailAction,
  findClientIdByPhoneAction,
  findClientIdByPlatformId,
  findClientIdByVar,
  onlineChatClientId,
} from './lookups';
import { callback, chatappCallback, chatappMessage, message, tgCallback } from './messaging';
import { connectedChannels, getMessages } from './project-info';
import { getVariables, saveVariables } from './variables';

/** Every action of the public API (platform-interface.md), in one list. */
export const actions = [
  callback,
  chatappCallback,
  tgCallback,
  message,
  chatappMessage,
  broadcast,
  getVariables,
  saveVariables,
  getClients,
  subscribers,
  loadClients,
  assignToUser,
  getHistoryAction,
  clearHistoryAction,
  addToListAction,
  removeFromListAction,
  setOrderState,
  findClientIdByPlatformId,
  findClientIdByPhoneAction,
  findClientIdByEmailAction,
  findClientIdByVar,
  chatappClientId,
  onlineChatClientId,
  connectedChannels,
  getMessages,
  ...channelChecks,
];
