-- AlterTable
ALTER TABLE "Channel" ADD COLUMN     "lastError" TEXT,
ADD COLUMN     "lastUpdateAt" TIMESTAMP(3),
ADD COLUMN     "pollOffset" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "receiveMode" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "TgUpdate" (
    "id" BIGSERIAL NOT NULL,
    "channelId" INTEGER NOT NULL,
    "updateId" BIGINT NOT NULL,
    "payload" JSONB NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processedAt" TIMESTAMP(3),
    "error" TEXT,

    CONSTRAINT "TgUpdate_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "TgUpdate_channelId_updateId_key" ON "TgUpdate"("channelId", "updateId");

-- AddForeignKey
ALTER TABLE "TgUpdate" ADD CONSTRAINT "TgUpdate_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
