-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "event" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "requestBody" TEXT,
ADD COLUMN     "responseBody" TEXT,
ADD COLUMN     "webhookId" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "WebhookDelivery_projectId_id_idx" ON "WebhookDelivery"("projectId", "id");
