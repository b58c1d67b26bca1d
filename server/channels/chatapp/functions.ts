import { CLIENT_TYPES } from '@/server/channels/channel-adapter';
import { resolveClient } from '@/server/contacts/client-service';
import { sendToClient } from '@/server/engine/functions/handlers/bot';
import { messengerFunction } from '@/server/engine/functions/handlers/messenger';
import type { AreaHandlers } from '@/server/engine/functions/registry';
import { asString } from '@/server/engine/functions/values';
import type { RunContext } from '@/server/engine/run-context';

const simulated = messengerFunction(CLIENT_TYPES.chatapp);

/** The number to send from: the running client's own chat-app number, else the project's only one. */
async function sendingNumber(run: RunContext): Promise<string> {
  if (run.client.clientType === CLIENT_TYPES.chatapp) return run.client.groupId;
  const numbers = await run.db.channel.findMany({
    where: { projectId: run.project.id, clientType: CLIENT_TYPES.chatapp },
    select: { groupId: true },
    take: 2,
  });
  if (numbers.length === 1) return numbers[0].groupId;
  throw new Error(
    numbers.length
      ? 'several chat-app numbers are connected: call chatapp_message in the flow of a chat-app client, so its number is used'
      : 'no chat-app number is connected to this project; connect one on the Channels tab',
  );
}

/** The chat-app messenger's functions (catalogue group "Bot and messages"). */
export const chatappHandlers = {
  /**
   * chatapp_message(phone, text, message_id?): the client with this number (created if new) gets
   * the text, or with an empty text the block; the simulator records it instead.
   */
  async chatapp_message(call) {
    const { run, args } = call;
    if (run.client.clientType === CLIENT_TYPES.simulator) return simulated(call);
    const groupId = await sendingNumber(run);
    const client = await resolveClient(run.db, run.project.id, {
      clientType: CLIENT_TYPES.chatapp,
      groupId,
      platformId: asString(args[0], 'phone'),
    });
    return sendToClient(run, client.id, args[1], args[2], undefined);
  },
} satisfies AreaHandlers;
