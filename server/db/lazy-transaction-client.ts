import type { Prisma } from './generated/client';

type TransactionBody = (tx: Prisma.TransactionClient) => Promise<void>;
type Method = (...args: unknown[]) => unknown;

/**
 * A Prisma transaction client whose transaction starts at its first use, so a path that never
 * uses it pays nothing for it. `open(body)` starts the transaction (`prisma.$transaction(body)`),
 * which lasts until `close()`. Models' methods and `$` methods (`$queryRaw`…) are what it offers;
 * each answers a promise.
 */
export function lazyTransactionClient(open: (body: TransactionBody) => Promise<void>): {
  tx: Prisma.TransactionClient;
  close(): Promise<void>;
} {
  let started: Promise<Prisma.TransactionClient> | undefined;
  let ended: Promise<void> | undefined;
  let release = () => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const client = () =>
    (started ??= new Promise((resolve, reject) => {
      ended = open(async (tx) => {
        resolve(tx);
        await done;
      });
      // A transaction that cannot start fails the call waiting for it.
      ended.catch(reject);
    }));
  const call =
    (model: string | null, name: string) =>
    async (...args: unknown[]) => {
      const tx = (await client()) as unknown as Record<string, Record<string, Method>>;
      const owner = model === null ? tx : tx[model];
      return (owner[name] as Method).apply(owner, args);
    };
  const member = (model: string | null) => (_: object, name: string | symbol) =>
    // Not a thenable: `then` is no method of a client.
    typeof name !== 'string' || name === 'then' ? undefined : call(model, name);
  const tx = new Proxy(
    {},
    {
      get: (target, name) =>
        typeof name === 'string' && name !== 'then' && !name.startsWith('$')
          ? new Proxy({}, { get: member(name) })
          : member(null)(target, name),
    },
  );
  return {
    tx: tx as Prisma.TransactionClient,
    async close() {
      release();
      await ended;
    },
  };
}
