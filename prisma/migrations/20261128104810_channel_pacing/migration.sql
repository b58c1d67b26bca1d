-- The tg bots' pacing rows become every channel's (chat-app numbers take their slots there too):
-- renamed in place, so slots taken a moment ago still count.
ALTER TABLE "TgPacing" RENAME TO "ChannelPacing";
ALTER TABLE "ChannelPacing" RENAME CONSTRAINT "TgPacing_pkey" TO "ChannelPacing_pkey";
ALTER TABLE "ChannelPacing" RENAME CONSTRAINT "TgPacing_channelId_fkey" TO "ChannelPacing_channelId_fkey";
