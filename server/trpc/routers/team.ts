import { z } from 'zod';
import { MEMBER_ROLES } from '@/lib/team/member-rules';
import { chatProfile, chatProfileInput, setChatProfile } from '@/server/projects/chat-profile';
import { acceptInvite, describeInvite } from '@/server/projects/invites';
import {
  changeMemberRole,
  inviteMember,
  inviteMemberInput,
  listMembers,
  reinviteMember,
  removeMember,
  setMemberActive,
} from '@/server/projects/team';
import {
  createTRPCRouter,
  projectManagerProcedure,
  projectProcedure,
  protectedProcedure,
  publicProcedure,
} from '../init';

const memberInput = z.object({ memberId: z.number().int().positive() });
const tokenInput = z.object({ token: z.string().max(200) });

/** The Team tab (owners and admins; who may change whom is lib/team/member-rules.ts) and the invite page. */
export const teamRouter = createTRPCRouter({
  /** The members, and which of them is the caller (the screen marks "you" and what they may change). */
  list: projectManagerProcedure.query(async ({ ctx }) => ({
    members: await listMembers(ctx.db, ctx.projectId),
    you: actorOf(ctx),
  })),

  invite: projectManagerProcedure
    .input(inviteMemberInput)
    .mutation(({ ctx, input }) => inviteMember(ctx.db, ctx.projectId, actorOf(ctx), input)),

  reinvite: projectManagerProcedure
    .input(memberInput)
    .mutation(({ ctx, input }) => reinviteMember(ctx.db, ctx.projectId, actorOf(ctx), input.memberId)),

  changeRole: projectManagerProcedure
    .input(memberInput.extend({ role: z.enum(MEMBER_ROLES) }))
    .mutation(({ ctx, input }) =>
      changeMemberRole(ctx.db, ctx.projectId, actorOf(ctx), input.memberId, input.role),
    ),

  setActive: projectManagerProcedure
    .input(memberInput.extend({ active: z.boolean() }))
    .mutation(({ ctx, input }) =>
      setMemberActive(ctx.db, ctx.projectId, actorOf(ctx), input.memberId, input.active),
    ),

  remove: projectManagerProcedure
    .input(memberInput)
    .mutation(({ ctx, input }) => removeMember(ctx.db, ctx.projectId, actorOf(ctx), input.memberId)),

  /** The caller's own name and photo in clients' chats: every member sets theirs, operators too. */
  chatProfile: projectProcedure.query(({ ctx }) => chatProfile(ctx.db, ctx.member.id)),
  setChatProfile: projectProcedure
    .input(chatProfileInput)
    .mutation(({ ctx, input }) => setChatProfile(ctx.db, ctx.member.id, input)),

  /** The invite page, before signing in: what the link is for, or why it no longer works. */
  describeInvite: publicProcedure
    .input(tokenInput)
    .query(({ ctx, input }) => describeInvite(ctx.db, input.token)),

  acceptInvite: protectedProcedure
    .input(tokenInput)
    .mutation(({ ctx, input }) => acceptInvite(ctx.db, input.token, ctx.session.user)),
});

const actorOf = (ctx: { member: { id: number; role: (typeof MEMBER_ROLES)[number] } }) => ({
  memberId: ctx.member.id,
  role: ctx.member.role,
});
