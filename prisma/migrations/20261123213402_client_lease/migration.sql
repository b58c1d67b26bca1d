-- AlterTable
ALTER TABLE "Client" ADD COLUMN     "leaseToken" TEXT,
ADD COLUMN     "leaseUntil" TIMESTAMP(3);
