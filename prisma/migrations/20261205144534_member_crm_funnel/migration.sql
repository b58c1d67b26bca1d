-- AlterTable
ALTER TABLE "ProjectMember" ADD COLUMN     "crmFunnelId" INTEGER;

-- AddForeignKey
ALTER TABLE "ProjectMember" ADD CONSTRAINT "ProjectMember_crmFunnelId_fkey" FOREIGN KEY ("crmFunnelId") REFERENCES "CrmFunnel"("id") ON DELETE SET NULL ON UPDATE CASCADE;
