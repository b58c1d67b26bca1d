-- AlterTable
ALTER TABLE "Outbox" ADD COLUMN     "clientId" INTEGER;

-- CreateIndex
CREATE INDEX "Outbox_clientId_id_idx" ON "Outbox"("clientId", "id") WHERE (kind = 'webhook' AND state IN ('pending', 'queued'));

-- Deliveries still to do keep their client's order: their client, from the message or submission.
UPDATE "Outbox" o SET "clientId" = m."clientId"
FROM "Message" m WHERE o.state <> 'done' AND o."messageId" = m.id;
UPDATE "Outbox" o SET "clientId" = s."clientId"
FROM "Submission" s WHERE o.state <> 'done' AND o."messageId" IS NULL AND o.kind = 'webhook'
  AND s.id::text = o.payload->>'submissionId';
