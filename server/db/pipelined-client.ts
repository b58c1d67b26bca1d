import pg from 'pg';

type Query = (...args: unknown[]) => Promise<pg.QueryResult>;

const begun = { command: 'BEGIN', rowCount: null, oid: 0, rows: [], fields: [] } as pg.QueryResult;

/**
 * A `pg` client that sends what it is asked in one go: in pipeline mode, statements issued
 * together (a statement and the COMMIT behind it) leave in one write and share one round trip.
 * `BEGIN` waits for the transaction's first statement and leaves with it; that statement
 * answers with BEGIN's error if BEGIN failed (only a failing connection fails a BEGIN, and
 * fails the statement with it). Waking the database costs more than the bytes it carries:
 * fewer writes is the point.
 */
export class PipelinedClient extends pg.Client {
  /** Forgets a BEGIN no statement followed (the client went back to its pool): none is sent. */
  readonly discardDeferredBegin: () => void;

  constructor(config: pg.ClientConfig = {}) {
    super({ ...config, pipeline: true });
    // pg's own query, looked up at each call (tests count statements by watching it).
    const send: Query = (...args) => (pg.Client.prototype.query as Query).apply(this, args);
    let corked = false;
    const query: Query = (...args) => {
      if (!corked) {
        corked = true;
        const stream = this.connection.stream;
        stream.cork();
        queueMicrotask(() => {
          corked = false;
          stream.uncork();
        });
      }
      return send(...args);
    };
    let beginDeferred = false;
    this.discardDeferredBegin = () => {
      beginDeferred = false;
    };
    // Only promise-style calls (the driver adapter's) defer a BEGIN; callback ones (the pool's,
    // the shared connections') are only corked with the rest.
    this.query = ((...args: unknown[]) => {
      if (args.some((arg) => typeof arg === 'function')) return query(...args);
      const [config, values] = args;
      const text = typeof config === 'string' ? config : (config as pg.QueryConfig).text;
      if (text === 'BEGIN' && values === undefined && !beginDeferred) {
        beginDeferred = true;
        return Promise.resolve(begun);
      }
      if (!beginDeferred) return query(...args);
      beginDeferred = false;
      const begin = query('BEGIN');
      const result = query(...args);
      return begin.then(
        () => result,
        (error) => {
          result.catch(() => {});
          throw error;
        },
      );
    }) as pg.Client['query'];
  }
}

/** A pool of PipelinedClients; a client back in the pool forgets a BEGIN left unsent. */
export function pipelinedPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ ...config, Client: PipelinedClient });
  pool.on('release', (_error, client) => (client as unknown as PipelinedClient).discardDeferredBegin());
  return pool;
}
