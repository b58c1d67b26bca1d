-- DropIndex
DROP INDEX "Outbox_state_claimedUntil_idx";

-- CreateIndex
CREATE INDEX "Outbox_claimedUntil_idx" ON "Outbox"("claimedUntil") WHERE (state = 'pending'::text);
