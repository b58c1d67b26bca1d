import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineHarness } from '@/server/engine/testing/engine-harness';
import { type LiveEvent, LiveHub, subscribeLive } from './live-events';
import { connectLiveHub } from './live-transport';
import { sseResponse } from './sse';

/** Resolves with the events once `count` have arrived. */
function collect(hub: LiveHub, filter: { projectId: number; clientId?: number }, count: number) {
  const events: LiveEvent[] = [];
  let unsubscribe = () => {};
  const done = new Promise<LiveEvent[]>((resolve) => {
    unsubscribe = hub.subscribe(filter, (event) => {
      events.push(event);
      if (events.length === count) resolve(events);
    });
  });
  return { events, done, unsubscribe };
}

describe('one process', () => {
  it("delivers a project's events to its listeners only, and one client's to a client filter", () => {
    const hub = new LiveHub();
    const project: LiveEvent[] = [];
    const client: LiveEvent[] = [];
    const other: LiveEvent[] = [];
    hub.subscribe({ projectId: 1 }, (e) => project.push(e));
    hub.subscribe({ projectId: 1, clientId: 7 }, (e) => client.push(e));
    hub.subscribe({ projectId: 2 }, (e) => other.push(e));
    hub.publish([
      { kind: 'message', projectId: 1, clientId: 7, messageId: '10' },
      { kind: 'client', projectId: 1, clientId: 8 },
    ]);
    expect(project.map((e) => e.kind)).toEqual(['message', 'client']);
    expect(client).toEqual([{ kind: 'message', projectId: 1, clientId: 7, messageId: '10' }]);
    expect(other).toEqual([]);
    // A re-read reaches every listener, a client's too.
    hub.resync();
    expect(client.at(-1)).toEqual({ kind: 'resync', projectId: 1 });
    expect(other).toEqual([{ kind: 'resync', projectId: 2 }]);
  });

  it('stops delivering after unsubscribe; a failing listener does not stop the others', () => {
    const hub = new LiveHub();
    const seen: string[] = [];
    const stop = hub.subscribe({ projectId: 1 }, () => seen.push('a'));
    hub.subscribe({ projectId: 1 }, () => {
      throw new Error('listener bug');
    });
    hub.subscribe({ projectId: 1 }, () => seen.push('c'));
    hub.publish([{ kind: 'client', projectId: 1, clientId: 1 }]);
    stop();
    hub.publish([{ kind: 'client', projectId: 1, clientId: 1 }]);
    expect(seen).toEqual(['a', 'c', 'c']);
    expect(hub.listenerCount).toBe(2);
  });
});

describe('the engine', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await EngineHarness.create();
  });
  afterAll(() => h?.close());

  it('publishes every message an event stores, the incoming one and the replies', async () => {
    const bot = await h.bot({
      blocks: [{ id: 1, kind: 'start', text: 'Hello', trigger: { alternatives: '', match: 'exact' } }],
      arrows: [],
    });
    const events: LiveEvent[] = [];
    const stop = subscribeLive({ projectId: bot.projectId }, (e) => events.push(e));
    await bot.say('hi');
    stop();
    const client = await bot.clientRow();
    const stored = await h.deps.db.message.findMany({
      where: { clientId: client.id },
      orderBy: { id: 'asc' },
    });
    expect(stored.map((m) => m.direction)).toEqual(['in', 'out']);
    const published = events.flatMap((e) => (e.kind === 'message' ? [e.messageId] : []));
    expect(new Set(published)).toEqual(new Set(stored.map((m) => String(m.id))));
    expect(events.every((e) => 'clientId' in e && e.clientId === client.id)).toBe(true);
  });
});

describe('server-sent events', () => {
  it('writes frames with ids, and runs the cleanup when the client goes away', async () => {
    const abort = new AbortController();
    let cleaned = false;
    const response = sseResponse(new Request('http://local/stream', { signal: abort.signal }), (send) => {
      send('message', { text: 'a<b' }, '41');
      return () => {
        cleaned = true;
      };
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('a<b')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('retry: 2000\n\n');
    expect(text).toContain('id: 41\nevent: message\ndata: {"text":"a<b"}\n\n');
    abort.abort();
    expect(cleaned).toBe(true);
  });
});

// Several instances share one PostgreSQL database: an event published by one reaches the others.
describe.runIf(process.env.TEST_DATABASE_URL)('across processes (PostgreSQL)', () => {
  const url = process.env.TEST_DATABASE_URL!;
  const hubs: LiveHub[] = [];
  const connected = async () => {
    const hub = new LiveHub();
    await connectLiveHub(hub, { mode: 'server', url });
    hubs.push(hub);
    return hub;
  };
  afterAll(async () => {
    for (const hub of hubs) await hub.close();
  });

  it("reaches another instance's listeners once, and the publisher's own once", async () => {
    const [a, b] = [await connected(), await connected()];
    const projectId = 900_000 + Math.floor(Math.random() * 1000);
    const onB = collect(b, { projectId }, 2);
    const onA: LiveEvent[] = [];
    a.subscribe({ projectId }, (e) => onA.push(e));
    a.publish([{ kind: 'message', projectId, clientId: 1, messageId: '1' }]);
    a.publish([{ kind: 'typing', projectId, clientId: 1, on: true }]);
    expect(await onB.done).toEqual([
      { kind: 'message', projectId, clientId: 1, messageId: '1' },
      { kind: 'typing', projectId, clientId: 1, on: true },
    ]);
    // A's echo came back through the database before B's last event did, and was dropped.
    const marker = collect(a, { projectId }, 1);
    b.publish([{ kind: 'client', projectId, clientId: 2 }]);
    await marker.done;
    expect(onA.map((e) => e.kind)).toEqual(['message', 'typing', 'client']);
  });

  it('splits a large batch under the notification size limit and loses nothing', async () => {
    const [a, b] = [await connected(), await connected()];
    const projectId = 901_000 + Math.floor(Math.random() * 1000);
    const events = Array.from({ length: 400 }, (_, i) => ({
      kind: 'message' as const,
      projectId,
      clientId: i,
      messageId: String(10_000_000 + i),
    }));
    const onB = collect(b, { projectId }, events.length);
    a.publish(events);
    expect(await onB.done).toEqual(events);
  });

  it('after the connection is cut, reconnects, tells listeners to re-read, and delivers again', async () => {
    const [a, b] = [await connected(), await connected()];
    const projectId = 902_000 + Math.floor(Math.random() * 1000);
    const resync = collect(b, { projectId }, 1);
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // Every connection listening on the live channel is cut: B's and A's.
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN blockbot_live%' AND datname = current_database()`,
    );
    await admin.end();
    expect(await resync.done).toEqual([{ kind: 'resync', projectId }]);
    resync.unsubscribe();
    const after = collect(b, { projectId }, 1);
    // A may still be reconnecting: publish until B hears it (a reconnecting transport refuses to send).
    const event = { kind: 'client' as const, projectId, clientId: 3 };
    const retry = setInterval(() => a.publish([event]), 100);
    try {
      expect((await after.done)[0]).toEqual(event);
    } finally {
      clearInterval(retry);
    }
  });
});
