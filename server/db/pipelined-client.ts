import pg from 'pg';

type Query = (...args: unknown[]) => Promise<pg.QueryResult>;
type Answer = (error: Error | null, result?: pg.QueryResult) => void;
type CallbackStyle = (config: pg.QueryConfig, values: unknown[] | undefined, answer: Answer) => void;
/** pg's callback style (its types know it for a text only). */
const callbackQuery = (
  client: pg.Client,
  config: pg.QueryConfig,
  values: unknown[] | undefined,
  answer: Answer,
) => (client.query as unknown as CallbackStyle).call(client, config, values, answer);

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

/**
 * How many connections the statements that share are spread over. Measured under
 * `npm run bench -- engine` on 2 cores: 1, 2 and 3 gave 64 %, 67 % and 73 % of the bare
 * baseline, against 56 % with each statement on a pooled connection of its own.
 */
const SHARED_CONNECTIONS = 3;

/**
 * A few connections that short statements outside any transaction share, each sent to the one
 * with the fewest statements in flight: statements issued at once leave together and the
 * database runs them one after another, woken once, where a pooled connection each would take
 * a write and a wake-up each, on both sides. Only statements that touch a few rows by key may
 * share (`PreparedStatement`'s `shares`): one that waits (a row another transaction holds) makes
 * those behind it on its connection wait too. A connection that fails is dropped; the next
 * statement opens another.
 */
class SharedConnections {
  private readonly clients: (Promise<PipelinedClient> | undefined)[] = [];
  /** Each slot's client once connected: a statement goes to it without waiting on a promise. */
  private readonly connected: (PipelinedClient | undefined)[] = [];
  private readonly inFlight: number[] = [];
  private ended = false;

  constructor(private readonly config: pg.ClientConfig) {
    for (let i = 0; i < SHARED_CONNECTIONS; i++) this.inFlight.push(0);
  }

  /**
   * One promise per statement, pg's callback style: its promise style makes three, and with
   * AsyncLocalStorage in use each costs a hook (Node 20).
   */
  query(config: pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    let slot = 0;
    for (let i = 1; i < SHARED_CONNECTIONS; i++) if (this.inFlight[i] < this.inFlight[slot]) slot = i;
    const client = this.connected[slot];
    this.inFlight[slot]++;
    return new Promise((resolve, reject) => {
      const answer: Answer = (error, result) => {
        this.inFlight[slot]--;
        if (error) reject(error);
        else resolve(result as pg.QueryResult);
      };
      if (client) callbackQuery(client, config, values, answer);
      else
        this.connection(slot).then(
          (opened) => callbackQuery(opened, config, values, answer),
          (error: Error) => answer(error),
        );
    });
  }

  private connection(slot: number): Promise<PipelinedClient> {
    if (this.ended) return Promise.reject(new Error('The database pool has ended.'));
    let connecting = this.clients[slot];
    if (!connecting) {
      const client = new PipelinedClient(this.config);
      const drop = () => {
        if (this.clients[slot] !== connecting) return;
        this.clients[slot] = undefined;
        this.connected[slot] = undefined;
      };
      // A lost connection fails the statements in flight on it (as a pooled one would); the
      // error is theirs to report.
      client.on('error', drop);
      client.on('end', drop);
      connecting = client.connect().then(
        () => {
          if (this.clients[slot] === connecting) this.connected[slot] = client;
          return client;
        },
        (error) => {
          drop();
          throw error;
        },
      );
      this.clients[slot] = connecting;
    }
    return connecting;
  }

  async end(): Promise<void> {
    this.ended = true;
    this.connected.fill(undefined);
    const open = this.clients.splice(0);
    await Promise.all(open.map((c) => c?.then((client) => client.end()).catch(() => {})));
  }
}

/**
 * A pool of PipelinedClients; a client back in the pool forgets a BEGIN left unsent. With
 * `shares`, the statements it names, sent outside a transaction (`pool.query`), go to a few
 * shared connections (SharedConnections) instead of a pooled connection each.
 */
export function pipelinedPool(config: pg.PoolConfig, shares?: (text: string) => boolean): pg.Pool {
  const pool = new pg.Pool({ ...config, Client: PipelinedClient });
  pool.on('release', (_error, client) => (client as unknown as PipelinedClient).discardDeferredBegin());
  if (!shares) return pool;
  const shared = new SharedConnections(config);
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    const [statement, values] = args;
    if (
      args.length <= 2 &&
      typeof statement === 'object' &&
      statement !== null &&
      typeof values !== 'function' &&
      shares((statement as pg.QueryConfig).text)
    )
      return shared.query(statement as pg.QueryConfig, values as unknown[] | undefined);
    return query(...args);
  }) as pg.Pool['query'];
  const end = pool.end.bind(pool);
  pool.end = (async () => {
    await shared.end();
    await end();
  }) as pg.Pool['end'];
  return pool;
}
