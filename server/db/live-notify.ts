import pg from 'pg';
import { logFor } from '@/server/log';

const log = logFor('live');

/** The one PostgreSQL channel live events travel on between processes. */
export const LIVE_CHANNEL = 'blockbot_live';

export interface NotifyConnection {
  send(payload: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A dedicated connection that LISTENs for live events and sends them with pg_notify. A lost
 * connection is opened again (1 s, doubling to 30 s); `onReconnect` tells the caller that
 * notifications may have been missed meanwhile.
 */
export async function openNotifyConnection(
  url: string,
  onPayload: (payload: string) => void,
  onReconnect: () => void,
): Promise<NotifyConnection> {
  let closed = false;
  let client: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = 1000;

  const connect = async () => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    next.on('notification', (message) => {
      if (message.channel === LIVE_CHANNEL && message.payload) onPayload(message.payload);
    });
    next.on('error', (error) => log.error(`connection error: ${error.message}`));
    next.on('end', () => {
      if (client !== next || closed) return;
      client = null;
      scheduleRetry();
    });
    await next.connect();
    await next.query(`LISTEN ${LIVE_CHANNEL}`);
    client = next;
    delay = 1000;
  };

  const scheduleRetry = () => {
    if (closed) return;
    retryTimer = setTimeout(() => {
      connect().then(onReconnect, (error: Error) => {
        log.error(`reconnect failed: ${error.message}`);
        delay = Math.min(delay * 2, 30_000);
        scheduleRetry();
      });
    }, delay);
    retryTimer.unref();
  };

  await connect();
  return {
    async send(payload) {
      if (!client) throw new Error('the live connection is down; reconnecting');
      await client.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, payload]);
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
