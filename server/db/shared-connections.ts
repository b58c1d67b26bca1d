import pg from 'pg';
import { PipelinedClient } from './pipelined-client';

/**
 * How many connections the statements that share are spread over. Measured under
 * `npm run bench -- engine` on 2 cores: 1, 2 and 3 gave 64 %, 67 % and 73 % of the bare
 * baseline, against 56 % with each statement on a pooled connection of its own.
 */
const SHARED_CONNECTIONS = 3;

/** A statement's answer as plain SQL reads it (raw-sql.ts): column names, then rows of values. */
export interface SharedResult {
  columnNames: string[];
  rows: unknown[][];
}

type Answer = (error: Error | null, result?: pg.QueryResult<unknown[]>) => void;
type CallbackStyle = (config: pg.QueryArrayConfig, values: undefined, answer: Answer) => void;

/**
 * Values as Prisma's PostgreSQL driver adapter gives them, which every row schema reads
 * (server/db/columns.ts): json and dates as text, `timestamp` (UTC by convention, DB_NOW) as
 * text that says so. pg's own defaults would parse both kinds of date in the process's time
 * zone and json into values; `timestamptz` (an instant) may stay a Date, which the schemas take.
 */
// pg's types name the scalar types only.
const builtin = pg.types.getTypeParser as (oid: number, format?: string) => (value: string) => unknown;
const textArray = builtin(1009);
const utc = (timestamp: string) => `${timestamp.replace(' ', 'T')}Z`;
const asText = (value: string) => value;
const parsers: Record<number, (value: string) => unknown> = {
  114: asText, // json
  3802: asText, // jsonb
  199: textArray, // json[]
  3807: textArray, // jsonb[]
  1082: asText, // date
  1182: textArray, // date[]
  1114: utc, // timestamp
  1115: (value) => (textArray(value) as (string | null)[]).map((t) => (t === null ? null : utc(t))),
};
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => parsers[oid] ?? builtin(oid, format ?? 'text'),
} as pg.CustomTypesConfig;

/** A Date as UTC text: a `timestamp` keeps its UTC wall time (the driver adapter sends it so too). */
const toPg = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/**
 * A few connections that short statements outside any transaction share, each sent to the one
 * with the fewest statements in flight: statements issued at once leave together and the
 * database runs them one after another, woken once, where a pooled connection each would take
 * a write and a wake-up each, on both sides. Only statements that touch a few rows by key may
 * share (`PreparedStatement`'s `shares`): one that waits (a row another transaction holds) makes
 * those behind it on its connection wait too. A connection that fails is dropped; the next
 * statement opens another.
 *
 * Statements come here from plain SQL (raw-sql.ts) straight, not through the driver adapter,
 * in pg's callback style: one promise a statement where the adapter and pg's promise style
 * make seven, and with AsyncLocalStorage in use each costs a hook (Node 20).
 */
export class SharedConnections {
  private readonly clients: (Promise<PipelinedClient> | undefined)[] = [];
  /** Each slot's client once connected: a statement goes to it without waiting on a promise. */
  private readonly connected: (PipelinedClient | undefined)[] = [];
  private readonly inFlight: number[] = [];
  private ended = false;

  constructor(private readonly config: pg.ClientConfig) {
    for (let i = 0; i < SHARED_CONNECTIONS; i++) this.inFlight.push(0);
  }

  /** Runs a statement, prepared under `name` on each connection, with `values` for $1, $2… */
  run(name: string, text: string, values: readonly unknown[]): Promise<SharedResult> {
    let slot = 0;
    for (let i = 1; i < SHARED_CONNECTIONS; i++) if (this.inFlight[i] < this.inFlight[slot]) slot = i;
    const client = this.connected[slot];
    const config: pg.QueryArrayConfig = { name, text, values: values.map(toPg), rowMode: 'array', types };
    this.inFlight[slot]++;
    return new Promise((resolve, reject) => {
      const answer: Answer = (error, result) => {
        this.inFlight[slot]--;
        if (error || !result) reject(error);
        else resolve({ columnNames: result.fields.map((field) => field.name), rows: result.rows });
      };
      // pg's types know its callback style for a text only.
      const send = (to: PipelinedClient) =>
        (to.query as unknown as CallbackStyle).call(to, config, undefined, answer);
      if (client) send(client);
      else this.connection(slot).then(send, (error: Error) => answer(error));
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
