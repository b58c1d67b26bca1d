-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "senderMemberId" INTEGER;

-- CreateIndex
CREATE INDEX "Client_projectId_waitingSince_idx" ON "Client"("projectId", "waitingSince");

-- CreateIndex
CREATE INDEX "Client_projectId_botPausedAt_idx" ON "Client"("projectId", "botPausedAt");

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_senderMemberId_fkey" FOREIGN KEY ("senderMemberId") REFERENCES "ProjectMember"("id") ON DELETE SET NULL ON UPDATE CASCADE;
