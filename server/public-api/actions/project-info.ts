import { z } from 'zod';
import { messengerApiName } from '@/lib/channels/descriptors';
import { findConnectedChannels } from '@/server/channels/channel-list';
import { loadPublishedSchema } from '@/server/versions/bot-versions';
import { defineAction } from '../action';

export const connectedChannels = defineAction({
  name: 'connected_channels',
  methods: ['GET'],
  summary: 'Messengers connected to the project, grouped by messenger',
  description:
    'Each channel with its group_id; chat-app channels also carry status: 0 NOT_STARTED, 1 STARTED, 2 ASLEEP, 3 STOPPED.',
  input: z.object({}),
  example: {},
  responseExample: {
    channels: {
      tg: [{ group_id: 'shop_bot', client_type: 1, name: 'Shop' }],
      chatapp: [{ group_id: '42', client_type: 6, status: 1 }],
    },
  },
  async handle(ctx) {
    const rows = await findConnectedChannels(ctx.db, ctx.projectId);
    const channels: Record<string, object[]> = {};
    for (const row of rows) {
      const messenger = messengerApiName(row.clientType);
      channels[messenger] = channels[messenger] ?? [];
      channels[messenger].push({
        group_id: row.groupId,
        client_type: row.clientType,
        name: row.name,
        ...(row.kind === 'chatapp' ? { status: row.status } : {}),
      });
    }
    return { channels };
  },
});

export const getMessages = defineAction({
  name: 'get_messages',
  methods: ['GET'],
  summary: "The published bot's blocks",
  input: z.object({}),
  example: {},
  responseExample: { messages: [{ id: 1, name: 'Welcome', kind: 'start', text: 'Hi #{name}!' }] },
  async handle(ctx) {
    const { schema } = await loadPublishedSchema(ctx.db, ctx.projectId);
    const messages = schema.blocks
      .filter((b) => b.kind !== 'comment')
      .sort((a, b) => a.id - b.id)
      .map(({ id, name, kind, text }) => ({ id, name, kind, text }));
    return { messages };
  },
});
