import { z } from 'zod';
import { listParam, textParam } from '@/lib/api-params';
import { findChatappClientId } from '@/server/channels/chatapp/client-lookup';
import { findVisitorByRecipient } from '@/server/channels/widget/client-lookup';
import { identifyVisitor } from '@/server/channels/widget/visitors';
import {
  findClientIdByEmail,
  findClientIdByPhone,
  findClientIdByVariable,
  findClientIdsByPlatformIds,
} from '@/server/contacts/client-lookup';
import { defineAction } from '../action';
import { ApiError } from '../api-error';

const notFound = (what: string) =>
  new ApiError(404, 'client_not_found', `No client ${what} in this project.`);

export const findClientIdByPlatformId = defineAction({
  name: 'find_client_id_by_platform_id',
  methods: ['POST'],
  summary: 'Client ids for messenger ids',
  input: z.object({
    platform_ids: listParam(textParam(), 500).pipe(
      z.array(z.string()).min(1, { error: 'must list at least one platform_id' }),
    ),
  }),
  example: { platform_ids: ['123456789', '987654321'] },
  responseExample: { client_id: 1001, clients: [{ platform_id: '123456789', client_id: 1001 }] },
  async handle(ctx, input) {
    const rows = await findClientIdsByPlatformIds(ctx.db, ctx.projectId, input.platform_ids);
    return {
      client_id: rows[0]?.id ?? null,
      clients: rows.map((r) => ({ platform_id: r.platformId, client_id: r.id })),
    };
  },
});

export const findClientIdByPhoneAction = defineAction({
  name: 'find_client_id_by_phone',
  methods: ['GET'],
  summary: 'Client id by phone number (chat-app and telephony clients, then phone variables)',
  input: z.object({ phone: textParam(z.string().min(1, { error: 'must not be empty' })) }),
  example: { phone: '+7 900 123-45-67' },
  responseExample: { client_id: 1001 },
  async handle(ctx, input) {
    const id = await findClientIdByPhone(ctx.db, ctx.projectId, input.phone);
    if (id === null) throw notFound(`with the phone ${input.phone}`);
    return { client_id: id };
  },
});

export const findClientIdByEmailAction = defineAction({
  name: 'find_client_id_by_email',
  methods: ['GET'],
  summary: 'Client id by e-mail (variables)',
  input: z.object({ email: textParam(z.string().trim().min(1, { error: 'must not be empty' })) }),
  example: { email: 'ann@example.com' },
  responseExample: { client_id: 1001 },
  async handle(ctx, input) {
    const id = await findClientIdByEmail(ctx.db, ctx.projectId, input.email);
    if (id === null) throw notFound(`with the e-mail ${input.email}`);
    return { client_id: id };
  },
});

export const findClientIdByVar = defineAction({
  name: 'find_client_id_by_var',
  methods: ['GET'],
  summary: 'Client id by a variable value',
  description: '`var` names a deal variable, or a profile variable with the `client.` prefix.',
  input: z.object({
    var: textParam(z.string().min(1, { error: 'must not be empty' }).max(500)),
    val: textParam(),
  }),
  example: { var: 'order_number', val: 'A-1001' },
  responseExample: { client_id: 1001 },
  async handle(ctx, input) {
    const id = await findClientIdByVariable(ctx.db, ctx.projectId, input.var, input.val);
    if (id === null) throw notFound(`whose ${input.var} is ${input.val}`);
    return { client_id: id };
  },
});

export const chatappClientId = defineAction({
  name: 'chatapp_client_id',
  methods: ['GET'],
  summary: 'Chat-app client id by phone number (404 when none)',
  input: z.object({ phone: textParam(z.string().min(1, { error: 'must not be empty' })) }),
  example: { phone: '79001234567' },
  responseExample: { client_id: 1002 },
  async handle(ctx, input) {
    const id = await findChatappClientId(ctx.db, ctx.projectId, input.phone);
    if (id === null) throw notFound(`of the chat-app messenger with the number ${input.phone}`);
    return { client_id: id };
  },
});

export const onlineChatClientId = defineAction({
  name: 'online_chat_client_id',
  methods: ['GET'],
  summary: 'Client id of a website chat-widget dialog',
  description:
    '`recipient` is the dialog id the chat widget script exposes on the website; `tag` and `name` update the client.',
  input: z.object({
    recipient: textParam(z.string().min(1, { error: 'must not be empty' })),
    tag: textParam().optional(),
    name: textParam().optional(),
  }),
  example: { recipient: 'w-5f2c9a', tag: 'landing' },
  responseExample: { client_id: 1003 },
  async handle(ctx, input) {
    const visitor = await findVisitorByRecipient(ctx.db, ctx.projectId, input.recipient);
    if (!visitor) throw notFound(`in the chat widget with the recipient ${input.recipient}`);
    // What the page's Blockbot.identify does: the client's name and tag, when given.
    await identifyVisitor(ctx.db, visitor, { name: input.name, tag: input.tag });
    return { client_id: visitor.clientId };
  },
});
