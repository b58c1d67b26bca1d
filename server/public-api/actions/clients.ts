import { z } from 'zod';
import {
  clientIdParam,
  idParam,
  jsonListParam,
  kindOf,
  listParam,
  numberParam,
  textParam,
} from '@/lib/api-params';
import { CHANNEL_DESCRIPTORS, descriptorOfType, groupIdsCaseInsensitive } from '@/lib/channels/descriptors';
import { phoneDigits } from '@/lib/channels/phone-numbers';
import { findChannelByGroup } from '@/server/channels/channel-list';
import { assignClient } from '@/server/contacts/assignment';
import {
  deleteClients,
  listClients,
  listSubscribers,
  MAX_DELETE,
  MAX_PAGE,
} from '@/server/contacts/client-listing';
import { resolveClient } from '@/server/contacts/client-service';
import type { Db } from '@/server/db/client-type';
import { defineAction } from '../action';
import { ApiError } from '../api-error';

const unixTime = () =>
  numberParam('must be a Unix timestamp in seconds')
    .pipe(z.number().int({ error: 'must be a Unix timestamp in whole seconds' }))
    .transform((s) => new Date(s * 1000));

const clientTypeParam = numberParam('must be a client_type (a whole number)').pipe(
  z.number().int({ error: 'must be a client_type (a whole number)' }),
);

export const getClients = defineAction({
  name: 'get_clients',
  methods: ['POST'],
  summary: 'List clients, or delete clients (with client_ids and a key allowed to delete)',
  description: `Without client_ids: returns clients from \`offset\`, at most \`limit\` (default and maximum ${MAX_PAGE}), optionally of one list. With \`client_ids\` (at most ${MAX_DELETE}): deletes those clients; the key needs the permission to delete clients.`,
  input: z.object({
    offset: numberParam()
      .pipe(z.number().int({ error: 'must be a whole number' }).min(0, { error: 'must be 0 or more' }))
      .default(0),
    limit: numberParam()
      .pipe(
        z
          .number()
          .int({ error: 'must be a whole number' })
          .min(1, { error: 'must be 1 or more' })
          .max(MAX_PAGE, { error: `must be at most ${MAX_PAGE}` }),
      )
      .default(MAX_PAGE),
    list: idParam('must be a list id (a positive whole number)').optional(),
    client_ids: listParam(clientIdParam, MAX_DELETE).optional(),
  }),
  example: { offset: 0, limit: 100 },
  responseExample: {
    clients: [
      { client_id: 1001, platform_id: '123456789', group_id: 'shop_bot', client_type: 1, name: 'Ann' },
    ],
  },
  async handle(ctx, input) {
    if (input.client_ids) {
      if (!ctx.key.canDeleteClients) {
        throw new ApiError(
          403,
          'permission_required',
          'This API key may not delete clients. Create a key with the permission to delete clients.',
        );
      }
      return { deleted: await deleteClients(ctx.db, ctx.projectId, input.client_ids) };
    }
    return {
      clients: await listClients(ctx.db, ctx.projectId, {
        offset: input.offset,
        limit: input.limit,
        listId: input.list,
      }),
    };
  },
});

export const subscribers = defineAction({
  name: 'subscribers',
  methods: ['POST'],
  summary: 'List subscribers, filtered',
  input: z.object({
    page: numberParam()
      .pipe(z.number().int({ error: 'must be a whole number' }).min(1, { error: 'must be 1 or more' }))
      .default(1),
    tag: textParam().optional(),
    group: textParam().optional(),
    date_from: unixTime().optional(),
    date_to: unixTime().optional(),
    client_type: clientTypeParam.optional(),
  }),
  example: { page: 1, client_type: 1 },
  responseExample: { total: 1, page: 1, pages: 1, clients: [{ client_id: 1001, platform_id: '123456789' }] },
  async handle(ctx, input) {
    return listSubscribers(ctx.db, ctx.projectId, {
      page: input.page,
      tag: input.tag,
      groupId: input.group,
      dateFrom: input.date_from,
      dateTo: input.date_to,
      clientType: input.client_type,
    });
  },
});

const KNOWN_TYPES = CHANNEL_DESCRIPTORS.map((d) => `${d.clientType} ${d.apiName}`).join(', ');

const loadItem = z
  .object(
    {
      platform_id: textParam(z.string().min(1, { error: 'must not be empty' })),
      group_id: textParam().default(''),
      client_type: clientTypeParam,
      name: textParam().optional(),
    },
    {
      error: (issue) =>
        issue.code === 'invalid_type'
          ? `must be an object with platform_id, group_id and client_type, not ${kindOf(issue.input)}`
          : undefined,
    },
  )
  // A type no channel has, or a number with no digits (stored as the empty number, so every
  // such client would be one), would be stored as given: refused instead, naming the field.
  .superRefine((item, ctx) => {
    const descriptor = descriptorOfType(item.client_type);
    if (!descriptor)
      ctx.addIssue({
        code: 'custom',
        path: ['client_type'],
        message: `must be the client type of a channel (${KNOWN_TYPES}), not ${item.client_type}`,
      });
    else if (descriptor.platformIds === 'phone' && phoneDigits(item.platform_id).length < 5)
      ctx.addIssue({
        code: 'custom',
        path: ['platform_id'],
        message: `must be a phone number (at least 5 digits) for client_type ${item.client_type} (${descriptor.apiName}), not "${item.platform_id}"`,
      });
  });

/**
 * The group_id a loaded client is stored under: a connected tg bot's own spelling (usernames
 * are case-insensitive: Shop_Bot and shop_bot are one bot, so one client); telephony's is
 * emptied by resolveClient.
 */
async function storedGroupId(db: Db, projectId: number, clientType: number, groupId: string) {
  if (!groupIdsCaseInsensitive(clientType)) return groupId;
  return (await findChannelByGroup(db, projectId, clientType, groupId))?.groupId ?? groupId;
}

export const loadClients = defineAction({
  name: 'load_clients',
  methods: ['GET', 'POST'],
  summary: 'Load (create) clients by their messenger identity',
  description:
    'One client as platform_id, group_id and client_type, or many as `clients`: a list of such items. Telephony (client_type 13) takes an empty group_id. Chat-app and telephony numbers may come in any form, with the messenger suffix or not: they are stored in E.164 without the plus (`+7 900 123-45-67`, `0079001234567` and `79001234567@c.us` are one client, `79001234567`). A `client_type` no channel has, or a chat-app or telephony `platform_id` with fewer than 5 digits, is refused (400 `invalid_parameter`, naming the row and the field) and nothing of the call is stored.',
  input: z.union([
    z.object({
      clients: jsonListParam(MAX_PAGE, z.array(loadItem).min(1).max(MAX_PAGE)),
    }),
    loadItem,
  ]),
  example: { clients: [{ platform_id: '79001234567', group_id: '42', client_type: 6 }] },
  responseExample: { clients: [{ client_id: 1002, platform_id: '79001234567' }] },
  async handle(ctx, input) {
    const items = 'clients' in input ? input.clients : [input];
    const created = [];
    for (const item of items) {
      // Chat-app numbers are stored in one form (resolveClient), so `+7 900…` and `7900…@c.us` are one client.
      const client = await resolveClient(ctx.db, ctx.projectId, {
        platformId: item.platform_id,
        groupId: await storedGroupId(ctx.db, ctx.projectId, item.client_type, item.group_id),
        clientType: item.client_type,
        name: item.name,
      });
      created.push({ client_id: client.id, platform_id: client.platformId });
    }
    return { clients: created };
  },
});

export const assignToUser = defineAction({
  name: 'assign_to_user',
  methods: ['GET'],
  summary: 'Assign a client to an employee',
  description: 'With `e-mail`, to that employee; without it, round-robin over the active employees.',
  input: z.object({
    client_id: clientIdParam,
    'e-mail': textParam(z.string().email({ error: 'must be an e-mail address' })).optional(),
    email: textParam(z.string().email({ error: 'must be an e-mail address' })).optional(),
  }),
  example: { client_id: 1001, 'e-mail': 'agent@example.com' },
  responseExample: { member_id: 3, email: 'agent@example.com' },
  async handle(ctx, input) {
    const assigned = await assignClient(
      ctx.db,
      ctx.projectId,
      input.client_id,
      input['e-mail'] ?? input.email,
    );
    return { member_id: assigned.memberId, email: assigned.email };
  },
});
