import type { Database } from '@/server/db';
import { openNotifyConnection } from '@/server/db/live-notify';
import type { LiveHub } from './live-events';

/**
 * Connects a hub to the other processes. Server mode: PostgreSQL NOTIFY, since every instance
 * and worker shares the database. Embedded mode runs one process (its data directory is
 * locked), so events stay in it.
 */
export async function connectLiveHub(hub: LiveHub, database: Pick<Database, 'mode' | 'url'>): Promise<void> {
  if (database.mode !== 'server' || !database.url) return;
  hub.setTransport(
    await openNotifyConnection(
      database.url,
      (payload) => hub.receive(payload),
      () => hub.resync(),
    ),
  );
}
