import { AsyncLocalStorage } from 'node:async_hooks';
import type { SqlDriverAdapterFactory, SqlQueryable } from '@prisma/driver-adapter-utils';
import { type Prisma, PrismaClient } from './generated/client';

/**
 * Plain SQL for the hot paths, where each Prisma call costs several times its round trip in
 * CPU. One statement with $1, $2… parameters; rows keyed by column name, with values as the
 * driver adapters give them on both databases: json, timestamps and bigints as text.
 */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  run<Row = Record<string, unknown>>(
    statement: PreparedStatement,
    params: Record<string, unknown>,
  ): Promise<Row[]>;
}

// Kept per process, not per module copy: Next.js bundles this module into several server
// chunks, while the Prisma client (server/db) is one per process and made by one of them.
const globalForSql = globalThis as unknown as {
  blockbotRawSql?: {
    /** The transaction Prisma is opening in this async context, caught as the adapter starts it. */
    opening: AsyncLocalStorage<{ transaction?: SqlQueryable }>;
    factories: WeakMap<PrismaClient, SqlDriverAdapterFactory>;
    plain: WeakMap<PrismaClient, Sql>;
    /** A PreparedStatement's text → the name PostgreSQL keeps it under. */
    statementNames: Map<string, string>;
  };
};
globalForSql.blockbotRawSql ??= {
  opening: new AsyncLocalStorage(),
  factories: new WeakMap(),
  plain: new WeakMap(),
  statementNames: new Map(),
};
const { opening, factories, plain, statementNames } = globalForSql.blockbotRawSql;

/**
 * A hot path's statement: fixed text with named parameters (`$name`, used as often as
 * needed). On PostgreSQL each connection parses and plans it once and keeps it prepared;
 * PGlite parses it each time. Fixed text keeps the number of prepared statements bounded.
 */
export class PreparedStatement {
  readonly text: string;
  private readonly names: string[] = [];

  constructor(text: string) {
    this.text = text.replace(/\$([a-zA-Z_]\w*)/g, (_, name: string) => {
      const known = this.names.indexOf(name);
      return `$${known >= 0 ? known + 1 : this.names.push(name)}`;
    });
    if (!statementNames.has(this.text)) statementNames.set(this.text, `blockbot_${statementNames.size + 1}`);
  }

  /** The parameters in placeholder order; a missing one is a bug, not a NULL. */
  values(params: Record<string, unknown>): unknown[] {
    return this.names.map((name) => {
      if (params[name] === undefined) throw new Error(`Parameter $${name} is missing.`);
      return params[name];
    });
  }
}

/** For the PostgreSQL adapter: the name a `PreparedStatement` is kept under; others stay unnamed. */
export const preparedStatementName = (query: { sql: string }): string => statementNames.get(query.sql) ?? '';

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

function sqlOn(queryable: SqlQueryable): Sql {
  return {
    run(statement, params) {
      return this.query(statement.text, statement.values(params));
    },
    async query<Row>(text: string, params: readonly unknown[] = []) {
      const result = await queryable.queryRaw({
        sql: text,
        args: [...params],
        argTypes: params.map(() => ANY_ARG),
      });
      const { columnNames } = result;
      return result.rows.map((row) => {
        const named: Record<string, unknown> = {};
        for (let i = 0; i < columnNames.length; i++) named[columnNames[i]] = row[i];
        return named as Row;
      });
    },
  };
}

/**
 * A Prisma client on the adapter whose interactive transactions can also be reached with plain
 * SQL (`sqlTransaction`), and whose pool answers plain statements (`plainSql`).
 */
export function createPrismaClient(factory: SqlDriverAdapterFactory): PrismaClient {
  const catching: SqlDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const adapter = await factory.connect();
      const start = adapter.startTransaction.bind(adapter);
      adapter.startTransaction = async (isolationLevel) => {
        const transaction = await start(isolationLevel);
        const slot = opening.getStore();
        if (slot && !slot.transaction) slot.transaction = transaction;
        return transaction;
      };
      return adapter;
    },
  };
  const prisma = new PrismaClient({ adapter: catching });
  factories.set(prisma, factory);
  return prisma;
}

/**
 * An interactive Prisma transaction, with plain SQL on the same connection: the hot path's
 * statements skip Prisma's per-query cost, while everything else keeps using `tx`.
 */
export function sqlTransaction<T>(
  prisma: PrismaClient,
  fn: (tx: Prisma.TransactionClient, sql: Sql) => Promise<T>,
  options?: { timeout?: number; maxWait?: number },
): Promise<T> {
  const slot: { transaction?: SqlQueryable } = {};
  return opening.run(slot, () =>
    prisma.$transaction(async (tx) => {
      if (!slot.transaction) throw new Error('sqlTransaction needs a client made by createPrismaClient.');
      return fn(tx, sqlOn(slot.transaction));
    }, options),
  );
}

/** Plain SQL outside any transaction (each statement commits on its own). */
export function plainSql(prisma: PrismaClient): Sql {
  let sql = plain.get(prisma);
  if (!sql) {
    const factory = factories.get(prisma);
    if (!factory) throw new Error('plainSql needs a client made by createPrismaClient.');
    const adapter = factory.connect();
    sql = {
      query: async (text, params) => sqlOn(await adapter).query(text, params),
      run: async (statement, params) => sqlOn(await adapter).run(statement, params),
    };
    plain.set(prisma, sql);
  }
  return sql;
}
