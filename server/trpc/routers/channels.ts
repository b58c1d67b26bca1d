import { z } from 'zod';
import {
  connectCloudInput,
  connectGatewayInput,
  connectSocialInput,
  connectTelephonyInput,
  connectTgInput,
} from '@/lib/channels/connect-inputs';
import { disconnectChannel, listChannels } from '@/server/channels/channel-list';
import {
  connectCloudChannel,
  updateChatappInput,
  updateChatappSettings,
} from '@/server/channels/chatapp/channel-service';
import {
  connectGatewayChannel,
  gatewayPairing,
  restartGateway,
} from '@/server/channels/chatapp/gateway-service';
import { connectSocialChannel } from '@/server/channels/social/channel-service';
import {
  connectTelephonyChannel,
  updateTelephonyInput,
  updateTelephonySettings,
} from '@/server/channels/telephony/channel-service';
import { connectTgChannel } from '@/server/channels/tg/channel-service';
import { startPolling } from '@/server/channels/tg/polling';
import {
  createWidgetChannel,
  createWidgetInput,
  updateWidgetInput,
  updateWidgetSettings,
} from '@/server/channels/widget/channel-service';
import { createTRPCRouter, projectManagerProcedure, projectProcedure } from '../init';

/** The Channels tab: every member sees the connected bots; owners and admins connect and disconnect. */
export const channelsRouter = createTRPCRouter({
  list: projectProcedure.query(({ ctx }) => listChannels(ctx.db, ctx.projectId)),
  connectTg: projectManagerProcedure
    .input(connectTgInput)
    .mutation(({ ctx, input }) => connectTgChannel(ctx.db, ctx.projectId, input, (id) => startPolling(id))),
  connectChatappCloud: projectManagerProcedure
    .input(connectCloudInput)
    .mutation(({ ctx, input }) => connectCloudChannel(ctx.db, ctx.projectId, input)),
  connectChatappGateway: projectManagerProcedure
    .input(connectGatewayInput)
    .mutation(({ ctx, input }) => connectGatewayChannel(ctx.db, ctx.projectId, input)),
  /** A gateway session's state and QR code, polled by the Channels tab while it pairs. */
  chatappPairing: projectManagerProcedure
    .input(z.object({ channelId: z.number().int().positive() }))
    .query(({ ctx, input }) => gatewayPairing(ctx.db, ctx.projectId, input.channelId)),
  restartChatappGateway: projectManagerProcedure
    .input(z.object({ channelId: z.number().int().positive() }))
    .mutation(({ ctx, input }) => restartGateway(ctx.db, ctx.projectId, input.channelId)),
  updateChatapp: projectManagerProcedure
    .input(updateChatappInput)
    .mutation(({ ctx, input }) => updateChatappSettings(ctx.db, ctx.projectId, input)),
  connectSocial: projectManagerProcedure
    .input(connectSocialInput)
    .mutation(({ ctx, input }) => connectSocialChannel(ctx.db, ctx.projectId, input)),
  connectTelephony: projectManagerProcedure
    .input(connectTelephonyInput)
    .mutation(({ ctx, input }) => connectTelephonyChannel(ctx.db, ctx.projectId, input)),
  updateTelephony: projectManagerProcedure
    .input(updateTelephonyInput)
    .mutation(({ ctx, input }) => updateTelephonySettings(ctx.db, ctx.projectId, input)),
  createWidget: projectManagerProcedure
    .input(createWidgetInput)
    .mutation(({ ctx, input }) => createWidgetChannel(ctx.db, ctx.projectId, input)),
  updateWidget: projectManagerProcedure
    .input(updateWidgetInput)
    .mutation(({ ctx, input }) => updateWidgetSettings(ctx.db, ctx.projectId, input)),
  disconnect: projectManagerProcedure
    .input(z.object({ channelId: z.number().int().positive() }))
    .mutation(({ ctx, input }) => disconnectChannel(ctx.db, ctx.projectId, input.channelId)),
});
