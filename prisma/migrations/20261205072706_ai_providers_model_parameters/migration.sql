-- AlterTable
ALTER TABLE "AiProvider" ADD COLUMN     "temperature" TEXT NOT NULL DEFAULT 'auto',
ADD COLUMN     "tokenParameter" TEXT NOT NULL DEFAULT 'auto';

-- AlterTable
ALTER TABLE "AiUsage" ADD COLUMN     "estimatedCalls" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "AiModelParameters" (
    "providerId" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "tokenParameter" TEXT NOT NULL,
    "temperature" BOOLEAN NOT NULL,
    "system" BOOLEAN NOT NULL DEFAULT true,
    "learnedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AiModelParameters_pkey" PRIMARY KEY ("providerId","model")
);

-- AddForeignKey
ALTER TABLE "AiModelParameters" ADD CONSTRAINT "AiModelParameters_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "AiProvider"("id") ON DELETE CASCADE ON UPDATE CASCADE;
