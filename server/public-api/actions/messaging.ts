import { z } from 'zod';
import { clientIdParam, idParam, jsonParam, textParam } from '@/lib/api-params';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import { attachmentTypeSchema, incomingButtonsSchema } from '@/lib/schema';
import { findChatappChannel } from '@/server/channels/chatapp/channel-service';
import { findTgChannel } from '@/server/channels/tg/channel-service';
import { resolveClient } from '@/server/contacts/client-service';
import { MESSAGE_FROM } from '@/server/contacts/history-service';
import { getEngineDeps } from '@/server/engine/engine';
import type { EngineEvent } from '@/server/engine/events';
import { handleEvent } from '@/server/engine/handle-event';
import { type ApiContext, defineAction } from '../action';
import { ApiError } from '../api-error';

/** Parameters of the callbacks that are not theirs are saved into variables (interface spec). */
function extraVariables(raw: Record<string, unknown>, known: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (known.includes(name) || name.startsWith('value_') || value === undefined || value === null) continue;
    out[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

/**
 * Runs `event` for the project's client. A client id this project has not is refused by the
 * engine's claim (404 not_found, naming the client) before anything is written: no read of the
 * client first.
 */
async function runEvent(ctx: ApiContext, clientId: number, event: EngineEvent) {
  const result = await handleEvent(await getEngineDeps(), ctx.projectId, { clientId }, event);
  // A message its channel holds (a chat-app session not working) is not sent yet: `queued`.
  const queued = result.messages.filter((m) => m.held).length;
  return {
    client_id: clientId,
    message_id: result.currentBlockId,
    sent: result.messages.length - queued,
    ...(queued ? { queued } : {}),
  };
}

const callbackKnown = ['client_id', 'client_email', 'client_phone', 'message'] as const;
export const callback = defineAction({
  name: 'callback',
  methods: ['POST'],
  summary: 'Start the bot for a client with a system message',
  description:
    'Routes `message` like a client message (start triggers, arrows, quick replies) without showing it to the client. The client is found by client_id, client_email or client_phone. Every other parameter is saved into a deal variable.',
  input: z
    .looseObject({
      client_id: clientIdParam.optional(),
      client_email: textParam().optional(),
      client_phone: textParam().optional(),
      message: textParam(),
    })
    // The request's client_email or client_phone has located the client by now (locate-client.ts).
    .refine((v): v is typeof v & { client_id: number } => v.client_id !== undefined, {
      error: 'client_id, client_email or client_phone is required',
      path: ['client_id'],
    }),
  clientLocators: { phone: 'client_phone', email: 'client_email' },
  example: { client_id: 1001, message: 'payment_ok', amount: '49.90' },
  responseExample: { client_id: 1001, message_id: 4, sent: 1 },
  async handle(ctx, input) {
    return runEvent(ctx, input.client_id, {
      type: 'message',
      text: input.message,
      messageFromOutside: MESSAGE_FROM.api,
      variables: extraVariables(input, callbackKnown),
    });
  },
});

const tgKnown = ['message', 'user_id', 'group_id'] as const;
export const tgCallback = defineAction({
  name: 'tg_callback',
  methods: ['POST'],
  summary: 'Start the bot for a tg messenger user',
  description:
    '`user_id` is the user in the tg messenger, `group_id` the name of a bot connected to the project (ending with "bot", in any case; an unknown one is a 404). Other parameters are saved into variables.',
  input: z.looseObject({
    message: textParam(),
    user_id: textParam(z.string().min(1, { error: 'must not be empty' })),
    group_id: textParam(z.string().regex(/bot$/i, { error: 'must be the bot name, which ends with "bot"' })),
  }),
  example: { user_id: '123456789', group_id: 'shop_bot', message: 'paid' },
  responseExample: { client_id: 1001, message_id: 4, sent: 1 },
  async handle(ctx, input) {
    const bot = await findTgChannel(ctx.db, ctx.projectId, input.group_id);
    if (!bot)
      throw new ApiError(
        404,
        'not_found',
        `group_id: no tg bot "${input.group_id}" is connected to this project; connected_channels lists the bots that are.`,
      );
    // The bot's own spelling: usernames are case-insensitive, so Shop_Bot and shop_bot are one client.
    const client = await resolveClient(ctx.db, ctx.projectId, {
      clientType: bot.clientType,
      groupId: bot.groupId,
      platformId: input.user_id,
    });
    return runEvent(ctx, client.id, {
      type: 'message',
      text: input.message,
      messageFromOutside: MESSAGE_FROM.api,
      variables: extraVariables(input, tgKnown),
    });
  },
});

/** The project's connected chat-app number with this bot id (its number, in any format), or a 404 naming it. */
async function connectedChatapp(ctx: ApiContext, botId: string) {
  const channel = await findChatappChannel(ctx.db, ctx.projectId, botId);
  if (!channel)
    throw new ApiError(
      404,
      'channel_not_found',
      `No chat-app bot ${botId} is connected to this project (see connected_channels).`,
    );
  return channel;
}

const chatappKnown = ['name', 'message', 'phone', 'bot_id'] as const;
export const chatappCallback = defineAction({
  name: 'chatapp_callback',
  methods: ['POST'],
  summary: 'Start the bot in the chat-app messenger for a phone number',
  description:
    'After a sign-up on a website: the client with this phone (created if new) starts the bot of the connected chat-app bot `bot_id`. Other parameters are saved into variables.',
  input: z.looseObject({
    phone: textParam(
      z
        .string()
        .refine((p) => phoneDigits(p).length >= 5, { error: 'must be a phone number (at least 5 digits)' }),
    ),
    bot_id: textParam(z.string().min(1, { error: 'must not be empty' })),
    message: textParam().default(''),
    name: textParam().optional(),
  }),
  example: { phone: '+7 900 123-45-67', bot_id: '42', name: 'Ann', message: 'signed_up' },
  responseExample: { client_id: 1002, message_id: 1, sent: 1 },
  async handle(ctx, input) {
    const channel = await connectedChatapp(ctx, input.bot_id);
    const client = await resolveClient(ctx.db, ctx.projectId, {
      clientType: channel.clientType,
      groupId: channel.groupId,
      platformId: input.phone,
      name: input.name,
    });
    return runEvent(ctx, client.id, {
      type: 'message',
      text: input.message,
      messageFromOutside: MESSAGE_FROM.api,
      variables: extraVariables(input, chatappKnown),
    });
  },
});

const outgoing = {
  message: textParam().optional(),
  message_id: idParam('must be a block id (a positive whole number)').optional(),
  attachment_type: attachmentTypeSchema.optional(),
  attachment_url: textParam(z.string().url({ error: 'must be a URL' })).optional(),
  buttons: jsonParam(incomingButtonsSchema).optional(),
};

type OutgoingInput = {
  message?: string;
  message_id?: number;
  attachment_type?: z.infer<typeof attachmentTypeSchema>;
  attachment_url?: string;
  buttons?: z.infer<typeof incomingButtonsSchema>;
};

/** message_id runs that block (the client moves into it); otherwise the text and file are sent. */
function outgoingEvent(input: OutgoingInput): EngineEvent {
  if (input.message_id)
    return { type: 'enter_block', blockId: input.message_id, messageFromOutside: MESSAGE_FROM.api };
  if (!input.message && !input.attachment_url) {
    throw new ApiError(
      400,
      'missing_parameter',
      'message is required unless a file is sent (attachment_type and attachment_url) or a block is given (message_id).',
    );
  }
  if (input.attachment_url && !input.attachment_type)
    throw new ApiError(400, 'missing_parameter', 'attachment_type is required with attachment_url.');
  return {
    type: 'send',
    text: input.message ?? '',
    attachments: input.attachment_url ? [{ type: input.attachment_type!, url: input.attachment_url }] : [],
    buttons: input.buttons ?? null,
    messageFromOutside: MESSAGE_FROM.api,
  };
}

export const message = defineAction({
  name: 'message',
  methods: ['POST'],
  summary: 'Send a message to a client',
  description:
    'A text, a file, or both; with `message_id` the block is executed fully and the client moves into it.',
  input: z.object({ client_id: clientIdParam, ...outgoing }),
  example: { client_id: 1001, message: 'Your order has shipped', buttons: [{ text: 'Track' }] },
  responseExample: { client_id: 1001, message_id: 2, sent: 1 },
  async handle(ctx, input) {
    return runEvent(ctx, input.client_id, outgoingEvent(input));
  },
});

export const chatappMessage = defineAction({
  name: 'chatapp_message',
  methods: ['POST'],
  summary: 'Send a message through the connected chat-app bot',
  input: z.object({
    chatapp_bot_id: textParam(z.string().min(1, { error: 'must not be empty' })),
    phone: textParam(),
    ...outgoing,
  }),
  example: { chatapp_bot_id: 42, phone: '79001234567', message: 'Hello!' },
  responseExample: { client_id: 1002, message_id: null, sent: 1 },
  async handle(ctx, input) {
    const channel = await connectedChatapp(ctx, input.chatapp_bot_id);
    const client = await resolveClient(ctx.db, ctx.projectId, {
      clientType: channel.clientType,
      groupId: channel.groupId,
      platformId: input.phone,
    });
    return runEvent(ctx, client.id, outgoingEvent(input));
  },
});
