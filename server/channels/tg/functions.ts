import { CLIENT_TYPES } from '@/server/channels/channel-adapter';
import { MESSAGE_FROM } from '@/server/contacts/history-service';
import { findByPlatformId } from '@/server/engine/functions/handlers/clients';
import { messengerFunction } from '@/server/engine/functions/handlers/messenger';
import type { AreaHandlers } from '@/server/engine/functions/registry';
import { asString, given } from '@/server/engine/functions/values';
import { isBusinessFlag, reachedThroughBusiness } from './business';

const botApi = messengerFunction(CLIENT_TYPES.tg);

/** The tg messenger's functions: a callback to a tg user, and the bot's profile and commands. */
export const tgHandlers = {
  async tg_callback({ run, args }) {
    const business = isBusinessFlag(args[3]);
    const platformId = asString(args[0], 'platform_id');
    const client = await findByPlatformId(
      run,
      CLIENT_TYPES.tg,
      platformId,
      given(args[2]) ? String(args[2]) : undefined,
      reachedThroughBusiness(business),
    );
    if (!client)
      throw new Error(
        `no tg client with platform_id ${platformId} ${
          business
            ? 'writing through a business account (drop the fourth argument for a client who writes to the bot directly)'
            : 'writing to the bot directly (pass 1 as the fourth argument for a client of a business account)'
        }`,
      );
    if (client === run.client.id) throw new Error('tg_callback() cannot send to the client itself');
    run.defer(client, {
      type: 'message',
      text: asString(args[1], 'callback_message'),
      messageFromOutside: MESSAGE_FROM.callback,
    });
    return true;
  },
  tg_callback_url_open: botApi,
  tg_set_bot_description: botApi,
  tg_set_bot_short_description: botApi,
  tg_get_bot_description: botApi,
  tg_get_bot_short_description: botApi,
  tg_set_command: botApi,
  tg_get_command: botApi,
  tg_delete_command: botApi,
} satisfies AreaHandlers;
