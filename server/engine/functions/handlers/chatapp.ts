import { CLIENT_TYPES } from '@/server/channels/channel-adapter';
import type { AreaHandlers } from '../registry';
import { messengerFunction } from './messenger';

/** The chat-app messenger's functions (catalogue group "Bot and messages"). */
export const chatappHandlers = {
  chatapp_message: messengerFunction(CLIENT_TYPES.chatapp),
} satisfies AreaHandlers;
