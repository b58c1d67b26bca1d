/**
 * Writes items many callers add one at a time, in batches: the items added in one turn of the
 * event loop go together, and those added while a batch is being written go in the next, right
 * after it (at most `maxItems` a batch, and, with `distinct`, at most one item of a key), as a
 * database groups its commits. Under load one write carries many items; alone, an item is
 * written at once. `add` resolves with the item's result once the batch that carried it is
 * written, and fails with it; one batch is written at a time.
 */
export class GroupWrite<Item, Result = void> {
  private waiting: { item: Item; resolve(result: Result): void; reject(error: unknown): void }[] = [];
  private writing: Promise<void> | null = null;
  private scheduled = false;

  constructor(
    /** Writes a batch; answers each item's result, in the batch's order (nothing when Result is void). */
    private readonly write: (batch: Item[]) => Promise<unknown>,
    private readonly options: { maxItems?: number; distinct?: (item: Item) => string } = {},
  ) {}

  add(item: Item): Promise<Result> {
    const written = new Promise<Result>((resolve, reject) => this.waiting.push({ item, resolve, reject }));
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
        const batch = this.nextBatch();
        try {
          const results = (await this.write(batch.map((w) => w.item))) as Result[] | undefined;
          for (let i = 0; i < batch.length; i++) batch[i].resolve(results?.[i] as Result);
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
      this.writing = null;
    })();
    return this.writing;
  }

  /** The next batch, in the order the items came; an item whose key the batch has waits for the next. */
  private nextBatch() {
    const max = this.options.maxItems ?? 500;
    const { distinct } = this.options;
    if (!distinct) return this.waiting.splice(0, max);
    const keys = new Set<string>();
    const batch: typeof this.waiting = [];
    const left: typeof this.waiting = [];
    for (const w of this.waiting) {
      const key = distinct(w.item);
      if (batch.length < max && !keys.has(key)) {
        keys.add(key);
        batch.push(w);
      } else left.push(w);
    }
    this.waiting = left;
    return batch;
  }
}
