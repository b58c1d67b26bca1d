import { z } from 'zod';
import { clientIdParam } from '@/lib/api-params';
import { getClient } from '@/server/contacts/client-service';
import { clearHistory, getHistory } from '@/server/contacts/history-service';
import { defineAction } from '../action';

export const getHistoryAction = defineAction({
  name: 'get_history',
  methods: ['GET'],
  summary: "A client's message history, oldest first",
  input: z.object({ client_id: clientIdParam }),
  example: { client_id: 1001 },
  responseExample: {
    result: [
      {
        id: 1,
        message: 'hi',
        is_input: 1,
        message_id: 1,
        attachments: [],
        created_at: 1767225600,
        message_from_outside: 0,
        delivered: 1,
      },
    ],
  },
  async handle(ctx, input) {
    await getClient(ctx.db, ctx.projectId, input.client_id);
    const messages = await getHistory(ctx.db, ctx.projectId, input.client_id);
    return {
      result: messages.map((m) => ({
        id: Number(m.id),
        message: m.text,
        is_input: m.direction === 'in' ? 1 : 0,
        message_id: m.blockId,
        attachments: m.attachments,
        buttons: m.buttons,
        message_from_outside: m.messageFromOutside,
        delivered: m.delivered ? 1 : 0,
        error_message: m.error,
        created_at: Math.floor(m.createdAt.getTime() / 1000),
      })),
    };
  },
});

export const clearHistoryAction = defineAction({
  name: 'clear_history',
  methods: ['GET'],
  summary: "Clear a client's message history and the files it sent",
  input: z.object({ client_id: clientIdParam }),
  example: { client_id: 1001 },
  responseExample: { deleted: 12 },
  async handle(ctx, input) {
    await getClient(ctx.db, ctx.projectId, input.client_id);
    return { deleted: await clearHistory(ctx.db, ctx.projectId, input.client_id) };
  },
});
