-- CreateIndex
CREATE INDEX "Client_projectId_lastMessageAt_id_idx" ON "Client"("projectId", "lastMessageAt", "id");

-- CreateIndex
CREATE INDEX "Client_projectId_name_id_idx" ON "Client"("projectId", "name", "id");

-- CreateIndex
CREATE INDEX "Client_projectId_assignedMemberId_idx" ON "Client"("projectId", "assignedMemberId");
