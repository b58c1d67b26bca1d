-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('queued', 'sent', 'delivered', 'read', 'failed');

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "externalId" TEXT,
ADD COLUMN     "status" "DeliveryStatus";

-- Outgoing messages stored before: failed with an error; delivered in chats that show what is
-- stored (the widget 5, the simulator 99); sent when another channel took them; else queued.
UPDATE "Message" m SET "status" = CASE
    WHEN m."error" IS NOT NULL AND NOT m."delivered" THEN 'failed'::"DeliveryStatus"
    WHEN NOT m."delivered" THEN 'queued'::"DeliveryStatus"
    WHEN c."clientType" IN (5, 99) THEN 'delivered'::"DeliveryStatus"
    ELSE 'sent'::"DeliveryStatus"
  END
FROM "Client" c
WHERE c.id = m."clientId" AND m."direction" = 'out';
