-- CreateIndex
CREATE INDEX "Message_projectId_clientId_id_idx" ON "Message"("projectId", "clientId", "id");
