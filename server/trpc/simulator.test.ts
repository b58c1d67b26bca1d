import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { getDb } from '@/server/db';
import { useFreshAppDatabase } from '@/server/db/test-support';
import type { TRPCContext } from './init';
import { createCaller } from './root';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blockbot-sim-'));
let app: Awaited<ReturnType<typeof useFreshAppDatabase>>;
beforeAll(async () => {
  app = await useFreshAppDatabase(tmp);
});
afterAll(async () => {
  await app?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

it('drives the simulator through tRPC: send, state with transcript, variables and log, fire a timer now, reset', async () => {
  const db = await getDb();
  const user = await db.user.create({ data: { id: 'designer', email: 'd@example.com', name: 'Dana' } });
  const caller = createCaller({
    db,
    session: { user, session: { id: 's', userId: user.id } } as unknown as TRPCContext['session'],
  });
  const project = await caller.project.create({ name: 'Sim', timeZone: 'UTC', withDemoBot: false });
  await caller.botSchema.save({
    projectId: project.id,
    expectedRevision: 0,
    schema: {
      format: BOT_SCHEMA_FORMAT,
      blocks: [
        {
          id: 1,
          kind: 'start',
          text: 'Hi #{name}, total #{total}',
          trigger: { alternatives: '' },
          formula: 'total = 2 + 2',
        },
        { id: 2, kind: 'state', text: 'Reminder' },
      ],
      arrows: [{ id: 1, from: 1, to: 2, kind: 'timer', timer: { delay: 1, unit: 'hours' } }],
    },
  });
  expect(await caller.simulator.send({ projectId: project.id, text: 'hello' })).toEqual({
    currentBlockId: 1,
    messages: 1,
  });
  const state = await caller.simulator.state({ projectId: project.id });
  expect(state.transcript.map((m) => [m.direction, m.text])).toEqual([
    ['in', 'hello'],
    ['out', 'Hi Dana, total 4'],
  ]);
  expect(state.variables.deal).toEqual({ total: '4' });
  expect(state.log.map((e) => e.kind)).toEqual(['event', 'block', 'formula', 'timer_scheduled']);
  expect(state.timers).toHaveLength(1);
  expect(
    await caller.simulator.fireNow({ projectId: project.id, scheduledSendId: state.timers[0].id }),
  ).toEqual({ fired: true });
  const after = await caller.simulator.state({ projectId: project.id });
  expect(after.currentBlockId).toBe(2);
  expect(after.transcript.at(-1)?.text).toBe('Reminder');
  await caller.simulator.reset({ projectId: project.id });
  expect((await caller.simulator.state({ projectId: project.id })).transcript).toEqual([]);
});
