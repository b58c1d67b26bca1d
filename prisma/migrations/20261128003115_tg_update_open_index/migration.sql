-- DropIndex
DROP INDEX "TgUpdate_channelId_chat_updateId_idx";

-- CreateIndex
CREATE INDEX "TgUpdate_channelId_chat_updateId_idx" ON "TgUpdate"("channelId", "chat", "updateId") WHERE ("processedAt" IS NULL);
