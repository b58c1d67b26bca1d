-- AlterTable
ALTER TABLE "BotVersion" ADD COLUMN     "testsFailed" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "testsRun" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "BotTest" (
    "projectId" INTEGER NOT NULL,
    "id" INTEGER NOT NULL,
    "test" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BotTest_pkey" PRIMARY KEY ("projectId","id")
);

-- CreateTable
CREATE TABLE "TestRun" (
    "id" SERIAL NOT NULL,
    "projectId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "testIds" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "report" JSONB,
    "error" TEXT,

    CONSTRAINT "TestRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TestRun_projectId_version_id_idx" ON "TestRun"("projectId", "version", "id");

-- AddForeignKey
ALTER TABLE "BotTest" ADD CONSTRAINT "BotTest_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TestRun" ADD CONSTRAINT "TestRun_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
