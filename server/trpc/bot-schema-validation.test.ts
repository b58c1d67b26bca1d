import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_SCHEMA_FORMAT } from '@/lib/schema';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import type { TRPCContext } from './init';
import { createCaller } from './root';

let tdb: TestDatabase;
let caller: ReturnType<typeof createCaller>;
let projectId: number;
beforeAll(async () => {
  tdb = await createTestDatabase();
  const user = await tdb.prisma.user.create({
    data: { id: 'u-dana', email: 'dana@example.com', name: 'Dana' },
  });
  caller = createCaller({
    db: tdb.prisma,
    session: { user, session: { id: 's-dana', userId: user.id } } as unknown as TRPCContext['session'],
  });
  projectId = (await caller.project.create({ name: 'Checked', timeZone: 'UTC', withDemoBot: false })).id;
});
afterAll(() => tdb?.close());

const good = {
  format: BOT_SCHEMA_FORMAT,
  blocks: [
    { id: 1, kind: 'start', text: 'Hi #{name}, #{2 + 2}', trigger: { alternatives: '' }, formula: 'x = 1' },
    {
      id: 2,
      kind: 'state',
      text: 'ok',
      request: {
        type: 'POST-json',
        url: 'https://api.example.com/#{x}',
        headers: '{"a": "#{x}"}',
        params: '{"n": "#{x}"}',
      },
    },
  ],
  arrows: [
    { id: 1, from: 1, to: 2, kind: 'condition', condition: { alternatives: '^order \\d+$', match: 'regex' } },
    { id: 2, from: 2, to: 1, kind: 'timer', timer: { at: '01.04.2026 10:00' } },
  ],
};

// biome-ignore lint/suspicious/noExplicitAny: each case reaches into the schema its own way
type Edit = (schema: any) => void;

/** The message of the error a call is refused with. */
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => expect.unreachable('the call was not refused'),
    (error: { code: string; message: string }) => {
      expect(error.code).toBe('BAD_REQUEST');
      return error.message;
    },
  );

const cases: [string, Edit, string][] = [
  ['a formula that does not parse', (s) => (s.blocks[0].formula = 'x = (1 +'), 'block 1, formula: line 1'],
  [
    'a #{...} expression that does not parse',
    (s) => (s.blocks[1].text = 'Total #{2 +* 3}'),
    'block 2, text: #{2 +* 3}',
  ],
  [
    'a comparison expression that does not parse',
    (s) => (s.arrows[0].condition.expression = 'x ==='),
    'arrow 1, condition.expression',
  ],
  [
    'a regex condition that does not compile',
    (s) => (s.arrows[0].condition.alternatives = 'order (\\d+'),
    'arrow 1, condition.alternatives',
  ],
  [
    'a timer date that is not dd.mm.yyyy hh:mm',
    (s) => (s.arrows[1].timer.at = 'tomorrow'),
    'arrow 2, timer.at',
  ],
  [
    'request headers that are not JSON',
    (s) => (s.blocks[1].request.headers = '{"a": }'),
    'block 2, request.headers',
  ],
  [
    'request parameters that are not JSON',
    (s) => (s.blocks[1].request.params = '{"n": #{x'),
    'block 2, request.params',
  ],
];

describe('every save and import of a bot schema is checked on the server as the editor checks it', () => {
  it('saves and imports a schema the editor accepts', async () => {
    const { revision } = await caller.botSchema.get({ projectId });
    expect(
      (await caller.botSchema.save({ projectId, schema: good, expectedRevision: revision })).revision,
    ).toBe(revision + 1);
    expect((await caller.botSchema.import({ projectId, json: JSON.stringify(good) })).revision).toBe(
      revision + 2,
    );
    // The builder's check before it asks to replace or add beside: parsed, defaults filled, not saved.
    const checked = await caller.botSchema.checkImport({ projectId, json: JSON.stringify(good) });
    expect(checked.schema.blocks[1]).toMatchObject({ id: 2, name: '', position: { x: 0, y: 0 } });
    expect((await caller.botSchema.get({ projectId })).revision).toBe(revision + 2);
  });

  it.each(cases)(
    'refuses %s, naming the block or arrow and the field; nothing changes',
    async (_, edit, named) => {
      const before = await caller.botSchema.get({ projectId });
      const schema = structuredClone(good);
      edit(schema);
      const saved = await refusal(
        caller.botSchema.save({ projectId, schema, expectedRevision: before.revision }),
      );
      expect(saved).toMatch(/^The bot schema was not saved:\n/);
      expect(saved).toContain(named);
      const imported = await refusal(caller.botSchema.import({ projectId, json: JSON.stringify(schema) }));
      expect(imported).toMatch(/^The file was not imported:\n/);
      expect(imported).toContain(named);
      const checked = await refusal(
        caller.botSchema.checkImport({ projectId, json: JSON.stringify(schema) }),
      );
      expect(checked).toBe(imported);
      expect(await caller.botSchema.get({ projectId })).toEqual(before);
    },
  );
});
