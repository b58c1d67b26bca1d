-- AlterTable
ALTER TABLE "TgUpdate" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "chat" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "claimToken" TEXT,
ADD COLUMN     "claimedUntil" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "TgUpdate_channelId_chat_updateId_idx" ON "TgUpdate"("channelId", "chat", "updateId");

-- CreateIndex
CREATE INDEX "TgUpdate_processedAt_idx" ON "TgUpdate"("processedAt");
