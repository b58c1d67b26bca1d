-- CreateTable
CREATE TABLE "TgBusinessConnection" (
    "channelId" INTEGER NOT NULL,
    "connectionId" TEXT NOT NULL,
    "userId" BIGINT NOT NULL,
    "userChatId" BIGINT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "canReply" BOOLEAN NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TgBusinessConnection_pkey" PRIMARY KEY ("channelId","connectionId")
);

-- AddForeignKey
ALTER TABLE "TgBusinessConnection" ADD CONSTRAINT "TgBusinessConnection_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;
