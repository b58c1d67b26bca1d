-- AlterTable
ALTER TABLE "Channel" ADD COLUMN     "settings" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "WidgetVisitor" (
    "id" SERIAL NOT NULL,
    "channelId" INTEGER NOT NULL,
    "clientId" INTEGER NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WidgetVisitor_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "WidgetVisitor_clientId_key" ON "WidgetVisitor"("clientId");

-- CreateIndex
CREATE UNIQUE INDEX "WidgetVisitor_tokenHash_key" ON "WidgetVisitor"("tokenHash");

-- CreateIndex
CREATE INDEX "WidgetVisitor_channelId_idx" ON "WidgetVisitor"("channelId");

-- AddForeignKey
ALTER TABLE "WidgetVisitor" ADD CONSTRAINT "WidgetVisitor_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WidgetVisitor" ADD CONSTRAINT "WidgetVisitor_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "Client"("id") ON DELETE CASCADE ON UPDATE CASCADE;
