-- CreateTable
CREATE TABLE "RateWindow" (
    "key" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "RateWindow_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "Channel_clientType_groupId_idx" ON "Channel"("clientType", "groupId");
