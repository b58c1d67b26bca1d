-- CreateEnum
CREATE TYPE "CrmStateKind" AS ENUM ('open', 'won', 'lost');

-- AlterTable
ALTER TABLE "CrmFunnel" ADD COLUMN     "cardVariables" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "CrmState" ADD COLUMN     "kind" "CrmStateKind" NOT NULL DEFAULT 'open';

-- CreateIndex
CREATE INDEX "CrmState_funnelId_idx" ON "CrmState"("funnelId");

-- CreateIndex
CREATE INDEX "Deal_stateId_closedAt_id_idx" ON "Deal"("stateId", "closedAt", "id");

-- Every funnel has a won and a lost stage (docs/crm.md): the default funnel's "Won" and "Lost"
-- become them; a funnel without such a stage gets one at its end.
UPDATE "CrmState" s SET "kind" = 'won'
WHERE s."id" = (SELECT t."id" FROM "CrmState" t WHERE t."funnelId" = s."funnelId" AND lower(t."name") = 'won' ORDER BY t."position", t."id" LIMIT 1);
UPDATE "CrmState" s SET "kind" = 'lost'
WHERE s."id" = (SELECT t."id" FROM "CrmState" t WHERE t."funnelId" = s."funnelId" AND lower(t."name") = 'lost' ORDER BY t."position", t."id" LIMIT 1);
INSERT INTO "CrmState" ("projectId", "funnelId", "name", "position", "kind")
SELECT f."projectId", f."id", 'Won', (SELECT coalesce(max(t."position"), -1) + 1 FROM "CrmState" t WHERE t."funnelId" = f."id"), 'won'
FROM "CrmFunnel" f WHERE NOT EXISTS (SELECT 1 FROM "CrmState" t WHERE t."funnelId" = f."id" AND t."kind" = 'won');
INSERT INTO "CrmState" ("projectId", "funnelId", "name", "position", "kind")
SELECT f."projectId", f."id", 'Lost', (SELECT coalesce(max(t."position"), -1) + 1 FROM "CrmState" t WHERE t."funnelId" = f."id"), 'lost'
FROM "CrmFunnel" f WHERE NOT EXISTS (SELECT 1 FROM "CrmState" t WHERE t."funnelId" = f."id" AND t."kind" = 'lost');
-- Deals already in a won or lost stage are closed.
UPDATE "Deal" d SET "closedAt" = d."updatedAt"
FROM "CrmState" s WHERE d."stateId" = s."id" AND s."kind" <> 'open' AND d."closedAt" IS NULL;
