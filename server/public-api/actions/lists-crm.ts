import { z } from 'zod';
import { clientIdParam, idParam, listParam } from '@/lib/api-params';
import { getClient } from '@/server/contacts/client-service';
import { addToList, removeFromList } from '@/server/contacts/list-service';
import { moveDealToStage } from '@/server/crm/move-deal';
import { getEngineDeps } from '@/server/engine/engine';
import { defineAction } from '../action';

const listInput = z.object({
  list_id: idParam('must be a list id (a positive whole number)'),
  clients: listParam(clientIdParam, 500).pipe(
    z.array(z.number()).min(1, { error: 'must list at least one client_id' }),
  ),
});

export const addToListAction = defineAction({
  name: 'add_to_list',
  methods: ['POST'],
  summary: 'Add clients to a list',
  input: listInput,
  example: { list_id: 7, clients: [1001, 1002] },
  responseExample: { added: 2 },
  async handle(ctx, input) {
    return { added: await addToList(ctx.db, ctx.projectId, input.list_id, input.clients) };
  },
});

export const removeFromListAction = defineAction({
  name: 'remove_from_list',
  methods: ['POST'],
  summary: 'Remove clients from a list',
  input: listInput,
  example: { list_id: 7, clients: [1001] },
  responseExample: { removed: 1 },
  async handle(ctx, input) {
    return { removed: await removeFromList(ctx.db, ctx.projectId, input.list_id, input.clients) };
  },
});

export const setOrderState = defineAction({
  name: 'set_order_state',
  methods: ['POST'],
  summary: "Move the client's deal to a CRM state",
  description:
    "Recorded in the history as a system message (message_from_outside 2) and delivered to the webhook. A won or lost stage closes the deal: the client's next deal starts empty.",
  input: z.object({
    client_id: clientIdParam,
    state_id: idParam('must be a CRM state id (a positive whole number)'),
  }),
  example: { client_id: 1001, state_id: 3 },
  responseExample: { order_id: 55, state_id: 3 },
  async handle(ctx, input) {
    await getClient(ctx.db, ctx.projectId, input.client_id);
    const moved = await moveDealToStage(
      await getEngineDeps(),
      ctx.projectId,
      { clientId: input.client_id },
      input.state_id,
    );
    return { order_id: moved.dealId, state_id: moved.stateId };
  },
});
