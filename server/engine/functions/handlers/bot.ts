import type { Value } from '@/lib/formula';
import { MESSAGE_FROM } from '@/server/contacts/history-service';
import type { RunContext } from '@/server/engine/run-context';
import type { AreaHandlers } from '../registry';
import { sendTime } from '../timeout';
import { asInt, asString, given } from '../values';
import { findByPlatformId, requireClient } from './clients';

/** Messages to clients and what the bot knows about its blocks and clients. */
export const botHandlers = {
  async callback({ run, args }) {
    const clientId = asInt(args[0], 'client_id');
    if (clientId === run.client.id)
      throw new Error('callback() cannot send to the client itself; use it for another client');
    await requireClient(run, clientId);
    run.defer(clientId, {
      type: 'message',
      text: asString(args[1], 'callback_message'),
      messageFromOutside: MESSAGE_FROM.callback,
    });
    return true;
  },

  message: ({ run, args }) => sendToClient(run, asInt(args[0], 'client_id'), args[1], args[2], args[3]),

  async platform_message({ run, args }) {
    const clientType = given(args[2]) ? asInt(args[2], 'client_type') : run.client.clientType;
    const clientId = await findByPlatformId(
      run,
      clientType,
      asString(args[0], 'platform_id'),
      given(args[5]) ? String(args[5]) : undefined,
    );
    if (!clientId)
      throw new Error(`no client with platform_id ${String(args[0])} in messenger ${clientType}`);
    // With message_id the block's text is sent instead of text.
    return sendToClient(run, clientId, given(args[3]) ? '' : args[1], args[3], args[4]);
  },

  async get_client_id_by_platform_id({ run, args }) {
    const clientType = asInt(args[0], 'client_type');
    const group = given(args[2]) ? String(args[2]) : undefined;
    // Several bots of the messenger: the running client's own, else the one the id is known to.
    return (await findByPlatformId(run, clientType, asString(args[1], 'platform_id'), group)) ?? null;
  },

  get_block_name_by_id({ run, args }) {
    const block = run.bot.blocks.get(asInt(args[0], 'block_id'));
    if (!block) throw new Error(`block ${String(args[0])} does not exist`);
    return block.name;
  },
} satisfies AreaHandlers;

/**
 * message(): with an empty text and a block id, that block runs fully and the client moves
 * into it; otherwise the text is sent. A timeout schedules it; other clients are handled after
 * this event, under their own lease.
 */
export async function sendToClient(
  run: RunContext,
  clientId: number,
  textArg: Value | undefined,
  blockArg: Value | undefined,
  timeout: Value | undefined,
): Promise<Value> {
  const text = given(textArg) ? String(textArg) : '';
  const blockId = given(blockArg) ? asInt(blockArg, 'message_id') : undefined;
  if (!text && blockId === undefined)
    throw new Error('message() needs a text, or an empty text and a message_id');
  if (blockId !== undefined) run.requireBlock(blockId);
  if (clientId !== run.client.id) await requireClient(run, clientId);

  const at = sendTime(timeout, run.now(), run.project.timeZone);
  if (at) {
    const send = await run.timers.scheduleSend({
      clientId,
      kind: given(timeout) && Number.isFinite(Number(timeout)) ? 'delayed_message' : 'scheduled_message',
      payload: { text, ...(blockId !== undefined ? { blockId } : {}) },
      runAt: at,
    });
    run.note('timer_scheduled', {
      scheduledSendId: send.id,
      clientId,
      runAt: at.toISOString(),
      kind: 'message',
    });
    return true;
  }
  const event =
    !text && blockId !== undefined
      ? { type: 'enter_block' as const, blockId, messageFromOutside: MESSAGE_FROM.callback }
      : { type: 'send' as const, text, messageFromOutside: MESSAGE_FROM.callback };
  if (clientId !== run.client.id) {
    run.defer(clientId, event);
    return true;
  }
  if (event.type === 'enter_block') run.queueBlock(run.requireBlock(event.blockId));
  else
    run.send({
      text: run.templates.render(text),
      attachments: [],
      buttons: null,
      blockId: blockId ?? null,
      messageFromOutside: MESSAGE_FROM.callback,
    });
  return true;
}
