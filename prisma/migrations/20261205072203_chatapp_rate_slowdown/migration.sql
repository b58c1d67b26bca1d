-- AlterTable
ALTER TABLE "ChannelPacing" ADD COLUMN     "slowMs" DOUBLE PRECISION,
ADD COLUMN     "slowedAt" DOUBLE PRECISION;
