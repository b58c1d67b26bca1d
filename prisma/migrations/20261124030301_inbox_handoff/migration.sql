-- AlterTable
ALTER TABLE "Client" ADD COLUMN     "botPausedAt" TIMESTAMP(3),
ADD COLUMN     "botPausedUntil" TIMESTAMP(3),
ADD COLUMN     "waitingSince" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "botPauseMinutes" INTEGER NOT NULL DEFAULT 1440;

-- CreateTable
CREATE TABLE "ConversationRead" (
    "memberId" INTEGER NOT NULL,
    "clientId" INTEGER NOT NULL,
    "lastReadMessageId" BIGINT NOT NULL,

    CONSTRAINT "ConversationRead_pkey" PRIMARY KEY ("memberId","clientId")
);

-- CreateIndex
CREATE INDEX "ConversationRead_clientId_idx" ON "ConversationRead"("clientId");

-- AddForeignKey
ALTER TABLE "ConversationRead" ADD CONSTRAINT "ConversationRead_memberId_fkey" FOREIGN KEY ("memberId") REFERENCES "ProjectMember"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConversationRead" ADD CONSTRAINT "ConversationRead_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "Client"("id") ON DELETE CASCADE ON UPDATE CASCADE;
