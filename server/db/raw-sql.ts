import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQueryable,
  SqlResultSet,
  Transaction,
} from '@prisma/driver-adapter-utils';
import type { z } from 'zod';
import { type Prisma, PrismaClient } from './generated/client';
import { lazyTransactionClient } from './lazy-transaction-client';
import type { SharedConnections } from './shared-connections';

/**
 * Plain SQL for the hot paths, where each Prisma call costs several times its round trip in
 * CPU. One statement with $1, $2… parameters; rows keyed by column name, with values as the
 * driver adapters give them on both databases: json, timestamps and bigints as text.
 */
export interface Sql {
  /** Ad hoc SQL (tests, tools): rows untyped; hot paths use a PreparedStatement with its row schema. */
  query(text: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** A statement's rows, checked and typed by its row schema. */
  run<Row>(statement: PreparedStatement<Row>, params: Record<string, unknown>): Promise<Row[]>;
}

// Kept per process, not per module copy: Next.js bundles this module into several server
// chunks, while the Prisma client (server/db) is one per process and made by one of them.
const globalForSql = globalThis as unknown as {
  blockbotRawSql?: {
    /** The open transaction a Prisma transaction started in this async context is to join. */
    joining: AsyncLocalStorage<SqlQueryable>;
    factories: WeakMap<PrismaClient, SqlDriverAdapterFactory>;
    /** Each client's own adapter, for plain SQL and sqlTransaction's transactions. */
    adapters: WeakMap<PrismaClient, Promise<SqlDriverAdapter>>;
    /** Each client's plain SQL once its adapter is connected. */
    plainSqls: WeakMap<PrismaClient, Sql>;
    /** A PreparedStatement's text → the name PostgreSQL keeps it under. */
    statementNames: Map<string, string>;
    /** Each client's connections for the statements that share one, on PostgreSQL. */
    shared: WeakMap<PrismaClient, SharedConnections>;
  };
};
globalForSql.blockbotRawSql ??= {
  joining: new AsyncLocalStorage(),
  factories: new WeakMap(),
  adapters: new WeakMap(),
  plainSqls: new WeakMap(),
  statementNames: new Map(),
  shared: new WeakMap(),
};
const { joining, factories, adapters, plainSqls, statementNames, shared } = globalForSql.blockbotRawSql;

/**
 * A hot path's statement: fixed text with named parameters (`$name`, used as often as
 * needed), and the schema of its rows (server/db/columns.ts), which types and checks what the
 * driver gives, so no caller casts a row. On PostgreSQL each connection parses it once and
 * keeps it prepared; PGlite parses it each time. Fixed text keeps the number of prepared
 * statements bounded. PostgreSQL keeps its plan too after five runs, unless plans made for the
 * given values look much cheaper, as they do for an array parameter to unnest (sized only once
 * its value is known): then it plans at every run. A hot statement takes scalar parameters, or
 * one JSON array read by jsonb_to_recordset (server/db/statement-plans.test.ts).
 *
 * `shares`: run outside a transaction on PostgreSQL, the statement goes to one of a few
 * connections that such statements share, pipelined with the others sent at once
 * (server/db/shared-connections.ts). Only for a statement that touches a few rows by key and
 * waits for no one long: one that waits holds up those behind it on its connection.
 */
export class PreparedStatement<Row = void> {
  readonly text: string;
  readonly shares: boolean;
  private readonly names: string[] = [];
  private readonly joined = new Map<PreparedStatement<unknown>, PreparedStatement<Row>>();

  /** Without a row schema the statement's rows are not read, only counted (an UPDATE, an EXISTS). */
  constructor(
    private readonly source: string,
    readonly row?: z.ZodType<Row>,
    options: { shares?: boolean } = {},
  ) {
    this.shares = options.shares ?? false;
    this.text = source.replace(/\$([a-zA-Z_]\w*)/g, (_, name: string) => {
      const known = this.names.indexOf(name);
      return `$${known >= 0 ? known + 1 : this.names.push(name)}`;
    });
    if (!statementNames.has(this.text)) statementNames.set(this.text, `blockbot_${statementNames.size + 1}`);
  }

  /**
   * This statement (a `WITH …` one) with `write`, a write whose rows are not read, as a first
   * data-modifying CTE: one statement, so both are stored or neither is, with no transaction
   * around them. `write`'s parameters are passed prefixed with `prefix` (see `prefixed`).
   */
  withWrite(write: PreparedStatement<unknown>, prefix: string): PreparedStatement<Row> {
    let statement = this.joined.get(write);
    if (!statement) {
      if (!/^\s*WITH\s/.test(this.source))
        throw new Error('withWrite needs a statement that starts with WITH.');
      const cte = prefixedSql(write.source, prefix);
      statement = new PreparedStatement(
        this.source.replace(/^\s*WITH\s/, `WITH ${prefix}write AS (\n${cte}\n), `),
        this.row,
        { shares: this.shares && write.shares },
      );
      this.joined.set(write, statement);
    }
    return statement;
  }

  /** The parameters in placeholder order; a missing one is a bug, not a NULL. */
  values(params: Record<string, unknown>): unknown[] {
    return this.names.map((name) => {
      if (params[name] === undefined) throw new Error(`Parameter $${name} is missing.`);
      return params[name];
    });
  }

  /** The driver's rows, typed by the row schema; without one only their number is of use. */
  rows(raw: Record<string, unknown>[]): Row[] {
    const schema = this.row;
    return schema ? raw.map((r) => schema.parse(r)) : (raw as unknown as Row[]);
  }
}

/** For the PostgreSQL adapter: the name a `PreparedStatement` is kept under; others stay unnamed. */
export const preparedStatementName = (query: { sql: string }): string => statementNames.get(query.sql) ?? '';

/** On PostgreSQL: the connections `prisma`'s plain SQL sends the statements that share to. */
export function shareConnections(prisma: PrismaClient, connections: SharedConnections): void {
  shared.set(prisma, connections);
}

/** SQL whose `$name` parameters are renamed `$<prefix>name`, to join another statement's. */
export const prefixedSql = (source: string, prefix: string): string =>
  source.replace(/\$([a-zA-Z_]\w*)/g, (_, name: string) => `$${prefix}${name}`);

/** `params` named for a statement joined by `withWrite` (or `prefixedSql`) with this prefix. */
export const prefixed = (prefix: string, params: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(params).map(([name, value]) => [prefix + name, value]));

/** Collects a statement's parameters; `add` answers the placeholder to write in the SQL. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

// The adapters map Dates to UTC timestamps (Prisma's convention) and pass everything else on.
const ANY_ARG = { scalarType: 'unknown', arity: 'scalar' } as const;

/** The driver's rows keyed by column name. */
function namedRows({
  columnNames,
  rows,
}: Pick<SqlResultSet, 'columnNames' | 'rows'>): Record<string, unknown>[] {
  return rows.map((row) => {
    const named: Record<string, unknown> = {};
    for (let i = 0; i < columnNames.length; i++) named[columnNames[i]] = row[i];
    return named;
  });
}

// Plain promise chains, not async functions: a hot path's statement costs a few promises fewer,
// and with AsyncLocalStorage in use every promise made costs a hook (Node 20). Outside a
// transaction a statement that `shares` goes to the shared connections, when there are some.
function sqlOn(queryable: SqlQueryable, connections?: SharedConnections): Sql {
  const send = (
    text: string,
    params: readonly unknown[],
  ): Promise<Pick<SqlResultSet, 'columnNames' | 'rows'>> =>
    queryable.queryRaw({ sql: text, args: [...params], argTypes: params.map(() => ANY_ARG) });
  return {
    query: (text, params = []) => send(text, params).then(namedRows),
    run: (statement, params) => {
      let values: unknown[];
      try {
        values = statement.values(params);
      } catch (error) {
        return Promise.reject(error);
      }
      const answer =
        connections && statement.shares
          ? connections.run(preparedStatementName({ sql: statement.text }), statement.text, values)
          : send(statement.text, values);
      return answer.then((result) => statement.rows(namedRows(result)));
    },
  };
}

/**
 * A Prisma client on the adapter whose transactions can join one opened by `sqlTransaction`,
 * and whose pool answers plain statements (`plainSql`).
 */
export function createPrismaClient(factory: SqlDriverAdapterFactory): PrismaClient {
  const joinable: SqlDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const adapter = await factory.connect();
      const start = adapter.startTransaction.bind(adapter);
      adapter.startTransaction = async (isolationLevel) => {
        const open = joining.getStore();
        return open ? joined(open) : start(isolationLevel);
      };
      return adapter;
    },
  };
  const prisma = new PrismaClient({ adapter: joinable });
  factories.set(prisma, factory);
  return prisma;
}

/** A Prisma transaction inside an open one: its statements go there; it neither commits nor rolls back. */
function joined(open: SqlQueryable): Transaction {
  return {
    provider: open.provider,
    adapterName: open.adapterName,
    options: { usePhantomQuery: true },
    queryRaw: (query) => open.queryRaw(query),
    executeRaw: (query) => open.executeRaw(query),
    commit: async () => {},
    rollback: async () => {},
  };
}

function adapterOf(prisma: PrismaClient): Promise<SqlDriverAdapter> {
  let adapter = adapters.get(prisma);
  if (!adapter) {
    const factory = factories.get(prisma);
    if (!factory) throw new Error('plain SQL needs a client made by createPrismaClient.');
    adapter = factory.connect();
    adapters.set(prisma, adapter);
  }
  return adapter;
}

/** A transaction's plain SQL, whose last statement can carry the commit. */
export interface TransactionSql extends Sql {
  /**
   * Runs the transaction's last statement and commits: on PostgreSQL both leave together and
   * share one round trip. Nothing may run in the transaction after it.
   */
  runAndCommit<Row>(statement: PreparedStatement<Row>, params: Record<string, unknown>): Promise<Row[]>;
}

const COMMIT = { sql: 'COMMIT', args: [], argTypes: [] };
const ROLLBACK = { sql: 'ROLLBACK', args: [], argTypes: [] };

/**
 * A transaction for the hot path: plain SQL on the adapter's own transaction, without the cost
 * of a Prisma interactive transaction. `tx`, for the rare paths, starts one at its first use
 * that joins this transaction, so both see and write the same. Rolled back when `fn` throws,
 * or when it is still running after `timeout` ms (then its later statements fail).
 */
export async function sqlTransaction<T>(
  prisma: PrismaClient,
  fn: (tx: Prisma.TransactionClient, sql: TransactionSql) => Promise<T>,
  options: { timeout?: number } = {},
): Promise<T> {
  const timeout = options.timeout ?? 5000;
  const transaction = await (await adapterOf(prisma)).startTransaction();
  // Adapters that end their transactions themselves (PGlite's) are sent no COMMIT or ROLLBACK.
  const ownStatements = !transaction.options.usePhantomQuery;
  let state = 'open' as 'open' | 'committing' | 'expired';
  let released = false;
  const release = async (how: 'commit' | 'rollback') => {
    if (released) return;
    released = true;
    await transaction[how]();
  };
  const rollback = async () => {
    try {
      if (ownStatements) await transaction.executeRaw(ROLLBACK);
    } finally {
      await release('rollback');
    }
  };
  let expired: Promise<void> | undefined;
  const expiry = setTimeout(() => {
    if (state !== 'open') return;
    state = 'expired';
    expired = rollback().catch(() => {});
  }, timeout);
  const refused = () =>
    Promise.reject(
      state === 'expired'
        ? new Error(`The transaction was rolled back: it ran longer than ${timeout} ms.`)
        : new Error('The transaction has committed: nothing may run after its last statement.'),
    );
  const queryable: SqlQueryable = {
    provider: transaction.provider,
    adapterName: transaction.adapterName,
    queryRaw: (query) => (state === 'open' ? transaction.queryRaw(query) : refused()),
    executeRaw: (query) => (state === 'open' ? transaction.executeRaw(query) : refused()),
  };
  const sql = sqlOn(queryable);
  const runAndCommit = async <Row>(statement: PreparedStatement<Row>, params: Record<string, unknown>) => {
    if (state !== 'open') return refused();
    // Both are written before either answer is read. (Adapters that end their transactions
    // themselves commit at the release.)
    const last = sql.run(statement, params);
    const commit = ownStatements ? transaction.executeRaw(COMMIT) : last;
    state = 'committing';
    const [rows, committed] = await Promise.allSettled([last, commit]);
    if (rows.status === 'rejected') throw rows.reason;
    if (committed.status === 'rejected') throw committed.reason;
    return rows.value;
  };
  const prismaSide = lazyTransactionClient((body) =>
    joining.run(queryable, () => prisma.$transaction(body, { timeout, maxWait: timeout })),
  );
  try {
    const result = await fn(prismaSide.tx, { query: sql.query, run: sql.run, runAndCommit });
    await prismaSide.close();
    if (state === 'expired') await refused();
    if (state === 'open' && ownStatements) await transaction.executeRaw(COMMIT);
    await release('commit');
    return result;
  } catch (error) {
    await prismaSide.close().catch(() => {});
    if (state === 'open') await rollback().catch(() => {});
    else if (state === 'expired') await expired;
    else await release('rollback').catch(() => {});
    throw error;
  } finally {
    clearTimeout(expiry);
  }
}

/** Plain SQL outside any transaction (each statement commits on its own). */
export function plainSql(prisma: PrismaClient): Sql {
  const ready = plainSqls.get(prisma);
  if (ready) return ready;
  const adapter = adapterOf(prisma);
  // Until the adapter is connected; then its Sql, kept, answers without waiting on it.
  const sqlOnAdapter = (connected: SqlDriverAdapter) => sqlOn(connected, shared.get(prisma));
  adapter.then((connected) => plainSqls.set(prisma, sqlOnAdapter(connected))).catch(() => {});
  return {
    query: async (text, params) => sqlOnAdapter(await adapter).query(text, params),
    run: async (statement, params) => sqlOnAdapter(await adapter).run(statement, params),
  };
}
