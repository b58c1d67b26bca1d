/**
 * Runs a bounded delete (`deleteBatch` deletes at most `batch` rows, the oldest first, and says
 * how many) until it deletes fewer, at most 20 times a call: a sweeper's pruning never holds
 * the database for long, and catches up over its next runs.
 */
export async function deleteInBatches(deleteBatch: (batch: number) => Promise<number>, batch = 5000) {
  let total = 0;
  for (let round = 0; round < 20; round++) {
    const deleted = await deleteBatch(batch);
    total += deleted;
    if (deleted < batch) break;
  }
  return total;
}
