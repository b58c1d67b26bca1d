-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "kept" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "submissionId" INTEGER;

-- Earlier submissions whose deal is still open came from yellow blocks: a red one closes it.
UPDATE "Submission" s SET "kept" = true FROM "Deal" d WHERE d.id = s."dealId" AND d."closedAt" IS NULL;
