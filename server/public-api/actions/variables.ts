import { z } from 'zod';
import { clientIdParam, jsonParam, kindOf, listParam } from '@/lib/api-params';
import { getClientVariables, saveClientVariables } from '@/server/contacts/client-variables-service';
import { defineAction } from '../action';

/** Clients per bulk save: one transaction opens a deal for each. */
const MAX_BULK_CLIENTS = 500;

const variablesObject = jsonParam(
  z.record(z.string(), z.unknown(), {
    error: (issue) => `must be an object of names and values, not ${kindOf(issue.input)}`,
  }),
);

export const saveVariables = defineAction({
  name: 'save_variables',
  methods: ['POST'],
  summary: 'Save variables of a client (or of several)',
  description:
    "Keys without a prefix go to the client's current deal; keys prefixed with `client.` go to the client profile. `clients` assigns the same variables to many clients. A null value clears a variable.",
  input: z
    .object({
      client_id: clientIdParam.optional(),
      clients: listParam(clientIdParam, MAX_BULK_CLIENTS).optional(),
      variables: variablesObject,
    })
    .refine((v) => v.client_id !== undefined || (v.clients?.length ?? 0) > 0, {
      error: 'client_id or clients is required',
      path: ['client_id'],
    }),
  example: { client_id: 1001, variables: { order_total: '49.90', 'client.email': 'ann@example.com' } },
  responseExample: {},
  async handle(ctx, input) {
    const ids = [...new Set([...(input.client_id ? [input.client_id] : []), ...(input.clients ?? [])])];
    await saveClientVariables(ctx.db, ctx.projectId, ids, input.variables);
    return {};
  },
});

export const getVariables = defineAction({
  name: 'get_variables',
  methods: ['GET'],
  summary: "Read a client's variables",
  description: 'Deal variables by name and profile variables with their `client.` prefix.',
  input: z.object({ client_id: clientIdParam }),
  example: { client_id: 1001 },
  responseExample: { variables: { order_total: '49.90', 'client.email': 'ann@example.com' } },
  handle: (ctx, input) =>
    getClientVariables(ctx.db, ctx.projectId, input.client_id).then((variables) => ({ variables })),
});
