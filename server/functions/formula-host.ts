import { type FormulaHost, serializeValue, type Value } from '@/lib/formula';
import { CLIENT_TYPES } from '@/server/channels/channel-adapter';
import { channelFor } from '@/server/channels/registry';
import { phoneDigits } from '@/server/clients/client-lookup';
import type { RunState } from '@/server/engine/run-state';
import { MESSAGE_FROM } from '@/server/history/history-service';
import { callRequestFunction, isRequestFunction } from './requests';
import { sendTime } from './timeout';
import { asInt, asString, given, inFlowArgs, jsonToValue, valueToJson } from './values';

/** Calls per event at most, so a formula loop cannot flood other clients or third-party APIs. */
const MAX_CALLS_PER_EVENT = 100;

/**
 * The in-flow functions with I/O (platform-interface.md, "In-flow functions"), for one event.
 * The formula language checks names, arity and plan; this does the work.
 */
export function createFormulaHost(run: RunState): FormulaHost {
  let calls = 0;
  return {
    async call(name, written) {
      if (++calls > MAX_CALLS_PER_EVENT)
        throw new Error(`at most ${MAX_CALLS_PER_EVENT} in-flow function calls per message`);
      const args = inFlowArgs(name, written);
      const notes: string[] = [];
      const result = await dispatch(run, name, args, notes);
      run.note('function', {
        name,
        args: args.map((a) => valueToJson(a)),
        result: valueToJson(result),
        ...(notes.length ? { notes } : {}),
      });
      return result;
    },
  };
}

async function dispatch(run: RunState, name: string, args: Value[], notes: string[]): Promise<Value> {
  if (isRequestFunction(name))
    return callRequestFunction(name, args, run.http, (message) => notes.push(message));
  const projectId = run.project.id;
  // Reads outside any transaction (the event holds its client's lease); writes go with the
  // event's final write.
  const db = run.db;
  switch (name) {
    case 'callback': {
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
    }
    case 'tg_callback': {
      const client = await findByPlatformId(
        run,
        CLIENT_TYPES.tg,
        asString(args[0], 'platform_id'),
        given(args[2]) ? String(args[2]) : undefined,
      );
      if (!client) throw new Error(`no tg client with platform_id ${String(args[0])}`);
      if (client === run.client.id) throw new Error('tg_callback() cannot send to the client itself');
      run.defer(client, {
        type: 'message',
        text: asString(args[1], 'callback_message'),
        messageFromOutside: MESSAGE_FROM.callback,
      });
      return true;
    }
    case 'message':
      return sendToClient(run, asInt(args[0], 'client_id'), args[1], args[2], args[3]);
    case 'platform_message': {
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
    }
    case 'get_client_id_by_platform_id': {
      const clientType = asInt(args[0], 'client_type');
      const group = given(args[2]) ? String(args[2]) : undefined;
      if (group === undefined) {
        const channels = await db.channel.count({ where: { projectId, clientType } });
        if (channels > 1)
          throw new Error(
            `several bots of messenger ${clientType} are connected: pass group (the bot's group_id)`,
          );
      }
      return (await findByPlatformId(run, clientType, asString(args[1], 'platform_id'), group)) ?? null;
    }
    case 'get_block_name_by_id': {
      const block = run.bot.blocks.get(asInt(args[0], 'block_id'));
      if (!block) throw new Error(`block ${String(args[0])} does not exist`);
      return block.name;
    }
    case 'get_client_var': {
      const clientId = asInt(args[0], 'client_id');
      const variable = asString(args[1], 'name').replace(/^client\./, '');
      if (clientId === run.client.id) return run.scope.get(`client.${variable}`) ?? null;
      const written = run.otherClientVariable(clientId, `client.${variable}`);
      if (written !== undefined) return written;
      await requireClient(run, clientId);
      const row = await db.clientVariable.findUnique({
        where: { clientId_name: { clientId, name: variable } },
      });
      return row?.value ?? null;
    }
    case 'set_client_var': {
      const clientId = asInt(args[0], 'client_id');
      const variable = `client.${asString(args[1], 'name').replace(/^client\./, '')}`;
      const value = given(args[2]) ? serializeValue(args[2]) : null;
      if (clientId === run.client.id) {
        run.scope.set(variable, value);
        return true;
      }
      await requireClient(run, clientId);
      run.setOtherClientVariable(clientId, variable, value);
      return true;
    }
    case 'create_order':
      return run.closeDeal();
    case 'change_state': {
      const stateId = asInt(args[0], 'state_id');
      const state = await db.crmState.findFirst({ where: { id: stateId, projectId } });
      if (!state) throw new Error(`CRM state ${stateId} does not exist`);
      run.setDealState(stateId);
      return true;
    }
    case 'get_state_id': {
      const state = await db.crmState.findFirst({
        where: { projectId, name: { equals: asString(args[0], 'name'), mode: 'insensitive' } },
        orderBy: [{ funnelId: 'asc' }, { position: 'asc' }],
      });
      return state?.id ?? null;
    }
    case 'add_to_list':
    case 'remove_from_list':
    case 'inlist':
    case 'list_size': {
      const listId = asInt(args[0], 'list_id');
      const list = await db.clientList.findFirst({ where: { id: listId, projectId } });
      if (!list) throw new Error(`list ${listId} does not exist`);
      if (name === 'add_to_list' || name === 'remove_from_list') {
        run.setListMember(listId, name === 'add_to_list');
        return true;
      }
      if (name === 'inlist') return run.inList(listId);
      return run.listSize(listId);
    }
    case 'assign_to_user': {
      const email = given(args[0]) ? String(args[0]).trim().toLowerCase() : undefined;
      const member = email
        ? await db.projectMember.findFirst({ where: { projectId, email, active: true } })
        : await db.projectMember.findFirst({
            where: { projectId, active: true },
            orderBy: [{ lastAssignedAt: { sort: 'asc', nulls: 'first' } }, { id: 'asc' }],
          });
      if (!member)
        throw new Error(
          email ? `no active employee with the e-mail ${email}` : 'the project has no active employees',
        );
      const at = run.deps.now();
      run.later(async (tx) => {
        await tx.client.update({ where: { id: run.client.id }, data: { assignedMemberId: member.id } });
        await tx.projectMember.update({ where: { id: member.id }, data: { lastAssignedAt: at } });
      });
      return member.email;
    }
    default:
      // chatapp_message, tg_callback_url_open and the tg_* profile functions need the messenger.
      return callChannel(run, name, args);
  }
}

async function requireClient(run: RunState, clientId: number) {
  const found = await run.db.client.count({ where: { id: clientId, projectId: run.project.id } });
  if (!found) throw new Error(`client ${clientId} does not exist in this project`);
}

async function findByPlatformId(
  run: RunState,
  clientType: number,
  platformId: string,
  groupId?: string,
): Promise<number | null> {
  const ids = clientType === CLIENT_TYPES.chatapp ? [platformId, phoneDigits(platformId)] : [platformId];
  const client = await run.db.client.findFirst({
    where: {
      projectId: run.project.id,
      clientType,
      platformId: { in: ids },
      ...(groupId !== undefined ? { groupId } : {}),
    },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return client?.id ?? null;
}

/**
 * message(): with an empty text and a block id, that block runs fully and the client moves
 * into it; otherwise the text is sent. A timeout schedules it; other clients are handled after
 * this event, under their own lock.
 */
async function sendToClient(
  run: RunState,
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

  const at = sendTime(timeout, run.deps.now(), run.project.timeZone);
  if (at) {
    const send = await run.addScheduledSend({
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
      text: run.render(text),
      attachments: [],
      buttons: null,
      blockId: blockId ?? null,
      messageFromOutside: MESSAGE_FROM.callback,
    });
  return true;
}

async function callChannel(run: RunState, name: string, args: Value[]): Promise<Value> {
  const adapter = channelFor(
    run.client.clientType === CLIENT_TYPES.simulator
      ? CLIENT_TYPES.simulator
      : name.startsWith('chatapp')
        ? CLIENT_TYPES.chatapp
        : CLIENT_TYPES.tg,
  );
  const result = await adapter.call(run.project.id, name, {
    args: args.map(valueToJson),
    clientId: run.client.id,
  });
  return result instanceof Map ? (result as Value) : jsonToValue(result);
}
