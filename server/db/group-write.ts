/**
 * Writes items many callers add one at a time, in batches: the items added in one turn of the
 * event loop go together, and those added while a batch is being written go in the next, right
 * after it (at most `maxItems` a batch), as a database groups its commits. Under load one write
 * carries many items; alone, an item is written at once. `add` resolves once the batch that
 * carried the item is written, and fails with it; one batch is written at a time.
 */
export class GroupWrite<Item> {
  private waiting: { item: Item; resolve(): void; reject(error: unknown): void }[] = [];
  private writing: Promise<void> | null = null;
  private scheduled = false;

  constructor(
    private readonly write: (batch: Item[]) => Promise<void>,
    private readonly maxItems = 500,
  ) {}

  add(item: Item): Promise<void> {
    const written = new Promise<void>((resolve, reject) => this.waiting.push({ item, resolve, reject }));
    if (!this.scheduled && !this.writing) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        void this.drain();
      });
    }
    return written;
  }

  /** Resolves once every item added so far is written (or has failed). */
  async drained(): Promise<void> {
    while (this.writing || this.waiting.length) await (this.writing ?? this.drain());
  }

  private drain(): Promise<void> {
    this.writing ??= (async () => {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0, this.maxItems);
        try {
          await this.write(batch.map((w) => w.item));
          for (const w of batch) w.resolve();
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
      this.writing = null;
    })();
    return this.writing;
  }
}
