-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "BroadcastStatus" ADD VALUE 'draft';
ALTER TYPE "BroadcastStatus" ADD VALUE 'scheduled';
ALTER TYPE "BroadcastStatus" ADD VALUE 'paused';

-- AlterTable
ALTER TABLE "Broadcast" ADD COLUMN     "cursor" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "epoch" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "filter" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "name" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "nextSendAt" TIMESTAMP(3),
ADD COLUMN     "scheduledAt" TIMESTAMP(3),
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'api',
ADD COLUMN     "startedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "operatorsSendBroadcasts" BOOLEAN NOT NULL DEFAULT true;

-- CreateIndex
CREATE INDEX "BroadcastRecipient_broadcastId_status_clientId_idx" ON "BroadcastRecipient"("broadcastId", "status", "clientId");
