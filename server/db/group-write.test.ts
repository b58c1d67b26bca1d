import { describe, expect, it } from 'vitest';
import { GroupWrite } from './group-write';

/** A write the test lets finish (or fail) batch by batch, recording what each carried. */
function gatedWrite() {
  const batches: number[][] = [];
  const gates: { open(): void; fail(error: Error): void }[] = [];
  const write = (batch: number[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push(batch);
      gates.push({ open: resolve, fail: reject });
    });
  return { batches, gates, write };
}

/** Lets the event loop turn until `condition` holds (a batch written, a promise settled). */
async function until(condition: () => boolean) {
  for (let turn = 0; !condition(); turn++) {
    if (turn > 1000) throw new Error('never happened');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Lets the event loop turn `n` times: what has not happened by then waits for something. */
async function turns(n: number) {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

const settled = (promise: Promise<unknown>) => {
  const state = { done: false, error: null as unknown };
  promise.then(
    () => {
      state.done = true;
    },
    (error) => {
      state.done = true;
      state.error = error;
    },
  );
  return state;
};

describe('GroupWrite', () => {
  it('writes the items of one turn together, and those added while it writes together after it', async () => {
    const { batches, gates, write } = gatedWrite();
    const group = new GroupWrite(write);
    const first = [1, 2, 3].map((n) => settled(group.add(n)));
    await until(() => batches.length === 1);
    expect(batches).toEqual([[1, 2, 3]]);

    // Added while the first batch is written: they wait for it, then go in one batch.
    const second = [4, 5].map((n) => settled(group.add(n)));
    await turns(3);
    const third = settled(group.add(6));
    await turns(3);
    expect(batches).toHaveLength(1);
    expect(first.some((s) => s.done)).toBe(false);

    gates[0].open();
    await until(() => batches.length === 2);
    expect(first.every((s) => s.done && !s.error)).toBe(true);
    expect(batches[1]).toEqual([4, 5, 6]);
    expect([...second, third].some((s) => s.done)).toBe(false);
    gates[1].open();
    await until(() => third.done);
    expect([...second, third].every((s) => s.done && !s.error)).toBe(true);
  });

  it('fails the items of a failed batch only, and goes on with the next', async () => {
    const { batches, gates, write } = gatedWrite();
    const group = new GroupWrite(write);
    const failed = settled(group.add(1));
    await until(() => batches.length === 1);
    const next = settled(group.add(2));
    gates[0].fail(new Error('connection lost'));
    await until(() => batches.length === 2);
    expect((failed.error as Error).message).toBe('connection lost');
    gates[1].open();
    await until(() => next.done);
    expect(next.error).toBe(null);
  });

  it('carries at most maxItems a batch', async () => {
    const { batches, gates, write } = gatedWrite();
    const group = new GroupWrite(write, { maxItems: 2 });
    const all = [1, 2, 3, 4, 5].map((n) => settled(group.add(n)));
    await until(() => batches.length === 1);
    gates[0].open();
    await until(() => batches.length === 2);
    gates[1].open();
    await until(() => batches.length === 3);
    gates[2].open();
    await until(() => all.every((s) => s.done));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('drained waits for every item added so far', async () => {
    const { batches, gates, write } = gatedWrite();
    const group = new GroupWrite(write);
    void group.add(1);
    const drained = settled(group.drained());
    await until(() => batches.length === 1);
    void group.add(2);
    gates[0].open();
    await until(() => batches.length === 2);
    expect(drained.done).toBe(false);
    gates[1].open();
    await until(() => drained.done);
    expect(batches).toEqual([[1], [2]]);
  });

  it('answers each item its own result, and keeps two items of one key in two batches', async () => {
    const batches: string[][] = [];
    const group = new GroupWrite<string, string>(
      async (batch) => {
        batches.push(batch);
        return batch.map((item) => `${item}!`);
      },
      { distinct: (item) => item.split(':')[0] },
    );
    const results = await Promise.all(['a:1', 'b:1', 'a:2', 'c:1'].map((item) => group.add(item)));
    expect(results).toEqual(['a:1!', 'b:1!', 'a:2!', 'c:1!']);
    expect(batches).toEqual([['a:1', 'b:1', 'c:1'], ['a:2']]);
  });
});
