-- CreateTable
CREATE TABLE "ClientChannelState" (
    "clientId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ClientChannelState_pkey" PRIMARY KEY ("clientId","key")
);

-- AddForeignKey
ALTER TABLE "ClientChannelState" ADD CONSTRAINT "ClientChannelState_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "Client"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The tg business connection a client writes through was kept in a client variable, where a
-- formula could change it and every screen showed it: it moves here.
INSERT INTO "ClientChannelState" ("clientId", "key", "value", "updatedAt")
SELECT "clientId", 'tg_business_connection_id', "value", "updatedAt"
FROM "ClientVariable" WHERE "name" = 'tg_business_connection_id' AND "value" <> '';
DELETE FROM "ClientVariable" WHERE "name" = 'tg_business_connection_id';
