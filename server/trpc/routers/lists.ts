import { z } from 'zod';
import { clientFilterInput, countClients } from '@/server/contacts/client-search';
import { importChannels } from '@/server/contacts/list-import';
import {
  addMatchingToList,
  addToList,
  createList,
  deleteList,
  listNameInput,
  projectLists,
  removeFromList,
  removeMatchingFromList,
  renameList,
} from '@/server/contacts/list-service';
import { createTRPCRouter, projectProcedure } from '../init';

const listId = z.number().int().positive();
/** Rows a browser may send by id at once (a page's selection); more go by filter. */
const MAX_SELECTED = 500;
const clientIds = z
  .array(z.number().int().positive())
  .min(1, 'Select at least one client.')
  .max(MAX_SELECTED, `At most ${MAX_SELECTED} selected clients at once; use "select all matching" for more.`);

/**
 * Client lists (docs/lists.md): every member, operators included, creates, renames and
 * deletes lists and changes their members; the domain logic is server/contacts/list-service.ts,
 * the same the public API's add_to_list calls.
 */
export const listsRouter = createTRPCRouter({
  all: projectProcedure.query(({ ctx }) => projectLists(ctx.db, ctx.projectId)),
  /** The channels a CSV import may create new clients for (those reaching people by phone). */
  importChannels: projectProcedure.query(({ ctx }) => importChannels(ctx.db, ctx.projectId)),
  create: projectProcedure.input(z.object({ name: listNameInput })).mutation(async ({ ctx, input }) => {
    const list = await createList(ctx.db, ctx.projectId, input.name);
    return { id: list.id, name: list.name };
  }),
  rename: projectProcedure
    .input(z.object({ listId, name: listNameInput }))
    .mutation(async ({ ctx, input }) => {
      const list = await renameList(ctx.db, ctx.projectId, input.listId, input.name);
      return { id: list.id, name: list.name };
    }),
  delete: projectProcedure
    .input(z.object({ listId }))
    .mutation(({ ctx, input }) => deleteList(ctx.db, ctx.projectId, input.listId)),

  /** How many clients a Clients-tab filter matches ("select all N matching"). */
  countMatching: projectProcedure
    .input(z.object({ filter: clientFilterInput }))
    .query(({ ctx, input }) => countClients(ctx.db, ctx.projectId, input.filter)),
  addClients: projectProcedure.input(z.object({ listId, clientIds })).mutation(async ({ ctx, input }) => ({
    changed: await addToList(ctx.db, ctx.projectId, input.listId, input.clientIds),
  })),
  removeClients: projectProcedure.input(z.object({ listId, clientIds })).mutation(async ({ ctx, input }) => ({
    changed: await removeFromList(ctx.db, ctx.projectId, input.listId, input.clientIds),
  })),
  /** Every client the filter matches, chosen on the server. */
  addMatching: projectProcedure
    .input(z.object({ listId, filter: clientFilterInput }))
    .mutation(async ({ ctx, input }) => ({
      changed: await addMatchingToList(ctx.db, ctx.projectId, input.listId, input.filter),
    })),
  removeMatching: projectProcedure
    .input(z.object({ listId, filter: clientFilterInput }))
    .mutation(async ({ ctx, input }) => ({
      changed: await removeMatchingFromList(ctx.db, ctx.projectId, input.listId, input.filter),
    })),
});
