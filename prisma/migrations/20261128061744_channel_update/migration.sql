-- The tg updates' table becomes every channel's (server/channels/inbound/), keeping the rows an
-- update in flight needs: renamed in place, and the messenger's id of an update, which drops
-- its repeats, becomes text (a chat-app message id is a string; a tg update_id is kept as one).
ALTER TABLE "TgUpdate" RENAME TO "ChannelUpdate";
ALTER SEQUENCE "TgUpdate_id_seq" RENAME TO "ChannelUpdate_id_seq";
ALTER TABLE "ChannelUpdate" RENAME CONSTRAINT "TgUpdate_pkey" TO "ChannelUpdate_pkey";
ALTER TABLE "ChannelUpdate" RENAME CONSTRAINT "TgUpdate_channelId_fkey" TO "ChannelUpdate_channelId_fkey";
ALTER INDEX "TgUpdate_channelId_chat_updateId_idx" RENAME TO "ChannelUpdate_channelId_chat_updateId_idx";
ALTER INDEX "TgUpdate_processedAt_idx" RENAME TO "ChannelUpdate_processedAt_idx";

ALTER TABLE "ChannelUpdate" ADD COLUMN "externalId" TEXT;
UPDATE "ChannelUpdate" SET "externalId" = "updateId"::text;
ALTER TABLE "ChannelUpdate" ALTER COLUMN "externalId" SET NOT NULL;
CREATE UNIQUE INDEX "ChannelUpdate_channelId_externalId_key" ON "ChannelUpdate"("channelId", "externalId");
DROP INDEX "TgUpdate_channelId_updateId_key";
