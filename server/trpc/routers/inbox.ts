import { z } from 'zod';
import { assignableMembers, assignClient } from '@/server/contacts/assignment';
import { getEngineDeps } from '@/server/engine/engine';
import { markWaitingDone, pauseBot, resumeBot } from '@/server/inbox/handoff';
import {
  conversationListInput,
  getConversation,
  listConversations,
  markRead,
} from '@/server/inbox/inbox-query';
import { replyText, replyToClient } from '@/server/inbox/operator-reply';
import { createTRPCRouter, projectProcedure } from '../init';

const clientInput = z.object({ clientId: z.number().int().positive() });

/**
 * The Conversations tab (docs/inbox.md): every member, operators included, answers clients.
 * Thin: each procedure is one domain operation of server/inbox or server/contacts.
 */
export const inboxRouter = createTRPCRouter({
  list: projectProcedure
    .input(conversationListInput)
    .query(({ ctx, input }) => listConversations(ctx.db, ctx.projectId, ctx.member.id, input)),

  conversation: projectProcedure
    .input(clientInput)
    .query(({ ctx, input }) => getConversation(ctx.db, ctx.projectId, input.clientId)),

  markRead: projectProcedure
    .input(clientInput.extend({ messageId: z.bigint().positive() }))
    .mutation(({ ctx, input }) =>
      markRead(ctx.db, ctx.projectId, ctx.member.id, input.clientId, input.messageId),
    ),

  reply: projectProcedure
    .input(clientInput.extend({ text: replyText }))
    .mutation(async ({ ctx, input }) =>
      replyToClient(await getEngineDeps(), ctx.projectId, ctx.member.id, input.clientId, input.text),
    ),

  pause: projectProcedure
    .input(clientInput.extend({ indefinitely: z.boolean().default(false) }))
    .mutation(({ ctx, input }) =>
      pauseBot(ctx.db, ctx.projectId, input.clientId, { indefinitely: input.indefinitely }),
    ),

  resume: projectProcedure
    .input(clientInput)
    .mutation(({ ctx, input }) => resumeBot(ctx.db, ctx.projectId, input.clientId)),

  waitingDone: projectProcedure
    .input(clientInput)
    .mutation(({ ctx, input }) => markWaitingDone(ctx.db, ctx.projectId, input.clientId)),

  /** To a member by e-mail, or round-robin without one: the API's `assign_to_user`. */
  assign: projectProcedure
    .input(clientInput.extend({ email: z.string().trim().email().max(320).optional() }))
    .mutation(({ ctx, input }) => assignClient(ctx.db, ctx.projectId, input.clientId, input.email)),

  /** Whom a conversation can go to: the project's active members. */
  members: projectProcedure.query(({ ctx }) => assignableMembers(ctx.db, ctx.projectId)),
});
