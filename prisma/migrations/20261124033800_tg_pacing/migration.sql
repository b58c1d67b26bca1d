-- CreateTable
CREATE TABLE "TgPacing" (
    "channelId" INTEGER NOT NULL,
    "nextAt" DOUBLE PRECISION NOT NULL,
    "chats" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "TgPacing_pkey" PRIMARY KEY ("channelId")
);

-- AddForeignKey
ALTER TABLE "TgPacing" ADD CONSTRAINT "TgPacing_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
