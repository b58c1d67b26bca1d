import { afterAll, beforeAll, expect, it } from 'vitest';
import { collabNotice } from '@/components/canvas/collab-notices';
import { type Block, BOT_SCHEMA_FORMAT, type BotSchema } from '@/lib/schema';
import { applyDraftChanges, diffDrafts } from '@/lib/schema/draft-changes';
import { DraftSync, type DraftTransport, type RemoteChange } from '@/lib/schema/draft-sync';
import { plainArrow as arrow, stateBlock } from '@/lib/schema/testing/draft-fixtures';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { signedInCaller } from '@/server/trpc/testing/signed-in';
import { loadBotSchema } from './bot-schema-store';

/**
 * Convergence (docs/builder.md, "Working together"): three designers, each a canvas's sync
 * (lib/schema/draft-sync.ts) over the real tRPC procedures, make 300 random edits each
 * at once, with random delays and one designer's connection dropped for a while. At the end
 * every canvas and the stored draft are the same, and every designer's last edit of each of
 * their own blocks (edits no one else made) is there, and every character anyone typed into the
 * text all three type into at once (merged character by character). The edits are seeded.
 */

let tdb: TestDatabase;
beforeAll(async () => {
  delete process.env.BLOCKBOT_SMTP_URL;
  tdb = await createTestDatabase();
});
afterAll(() => tdb?.close());

const OPS = 300;
const DESIGNERS = 3;

/** mulberry32: a small seeded generator. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A block named `name`, empty, at the origin. */
const block = (id: number, name: string, extra: Partial<Block> = {}): Block =>
  stateBlock(id, { name, text: '', position: { x: 0, y: 0 }, ...extra });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One designer: a canvas's present, its sync, and the last text they gave each block of theirs (by name). */
class Designer {
  present: BotSchema;
  readonly sync: DraftSync;
  readonly lastText = new Map<string, string>();
  /** The characters this designer typed into the start block's text, each one of its own. */
  readonly typed: string[] = [];
  offline = false;
  private created = 0;

  constructor(
    readonly index: number,
    transport: DraftTransport,
    initial: { schema: BotSchema; revision: number },
    readonly rng: () => number,
  ) {
    this.present = initial.schema;
    const wire =
      <T>(call: () => Promise<T>) =>
      async () => {
        await pause(rng() * 4);
        if (this.offline) throw new Error('connection lost');
        const answer = await call();
        await pause(rng() * 4);
        return answer;
      };
    this.sync = new DraftSync(
      {
        change: (input) => wire(() => transport.change(input))(),
        changesSince: (revision) => wire(() => transport.changesSince(revision))(),
        load: () => wire(() => transport.load())(),
        save: (schema, expected) => wire(() => transport.save(schema, expected))(),
      },
      initial,
      {
        present: () => this.present,
        onRemote: (change) => {
          this.present = change.apply(this.present, true);
        },
      },
    );
  }

  private mine() {
    return this.present.blocks.filter((b) => b.name.startsWith(`d${this.index}-`));
  }

  private nextId(items: { id: number }[]) {
    return Math.max(0, ...items.map((i) => i.id)) + 1;
  }

  /** One random edit of the present, as the canvas makes them. */
  edit() {
    const pick = <T>(items: T[]) => items[Math.floor(this.rng() * items.length)];
    const roll = this.rng();
    const mine = this.mine();
    if (roll < 0.25 || mine.length < 2) {
      const name = `d${this.index}-${++this.created}`;
      const added = block(this.nextId(this.present.blocks), name);
      this.present = applyDraftChanges(this.present, [
        { entity: 'block', op: 'add', id: added.id, value: added },
      ]);
    } else if (roll < 0.55) {
      const target = pick(mine);
      const text = `${target.name} text ${Math.floor(this.rng() * 1e6)}`;
      this.lastText.set(target.name, text);
      this.present = applyDraftChanges(this.present, [
        { entity: 'block', op: 'set', id: target.id, fields: { text }, base: {} },
      ]);
    } else if (roll < 0.63) {
      // Everyone types into the start block's text: a character no one else types, anywhere.
      const char = String.fromCodePoint(0x4e00 + this.index * 1_000 + this.typed.length);
      this.typed.push(char);
      const text = this.present.blocks[0].text;
      const at = Math.floor(this.rng() * (text.length + 1));
      this.present = applyDraftChanges(this.present, [
        {
          entity: 'block',
          op: 'set',
          id: 1,
          fields: { text: text.slice(0, at) + char + text.slice(at) },
          base: {},
        },
      ]);
    } else if (roll < 0.7) {
      // Everyone moves the start block: the same field by all, the last one wins.
      const position = { x: Math.floor(this.rng() * 1000), y: Math.floor(this.rng() * 1000) };
      this.present = applyDraftChanges(this.present, [
        { entity: 'block', op: 'set', id: 1, fields: { position }, base: {} },
      ]);
    } else if (roll < 0.85) {
      const target = pick(mine);
      const added = arrow(this.nextId(this.present.arrows), target.id, 1);
      this.present = applyDraftChanges(this.present, [
        { entity: 'arrow', op: 'add', id: added.id, value: added },
      ]);
    } else if (roll < 0.93) {
      const target = pick(mine);
      this.lastText.delete(target.name);
      this.present = applyDraftChanges(this.present, [{ entity: 'block', op: 'delete', id: target.id }]);
    } else {
      const own = new Set(mine.map((b) => b.id));
      const target = pick(this.present.arrows.filter((a) => own.has(a.from)));
      if (target)
        this.present = applyDraftChanges(this.present, [{ entity: 'arrow', op: 'delete', id: target.id }]);
    }
  }

  /** Sends what is not stored yet, as the autosave does; a lost connection leaves it for later. */
  async flush() {
    try {
      await this.sync.flush();
    } catch (error) {
      if ((error as Error).message !== 'connection lost') throw error;
    }
  }

  async run(total: number) {
    for (let op = 1; op <= total; op++) {
      // Designer 2 loses its connection for a stretch of its edits, then gets it back.
      if (this.index === 2) this.offline = op > total / 3 && op <= total / 2;
      this.edit();
      const next = this.rng();
      if (next < 0.4) await this.flush();
      else if (next < 0.6) await this.sync.pull();
      else await pause(this.rng() * 3);
    }
    this.offline = false;
  }
}

/** A project with a bot of one start block, and `count` of its admins signed in (the first its owner). */
async function teamOnOneBot(count: number, prefix: string) {
  const owner = await signedInCaller(tdb.prisma, `${prefix}-owner@example.com`);
  const { id: projectId } = await owner.project.create({ name: prefix, timeZone: 'UTC', withDemoBot: false });
  const start: BotSchema = {
    format: BOT_SCHEMA_FORMAT,
    blocks: [block(1, 'Start', { kind: 'start', trigger: { alternatives: '' } as Block['trigger'] })],
    arrows: [],
  };
  await owner.botSchema.save({ projectId, schema: start, expectedRevision: 0 });
  const callers = [owner];
  for (let i = 1; i < count; i++) {
    const email = `${prefix}-${i}@example.com`;
    const { invite } = await owner.team.invite({ projectId, email, role: 'admin' });
    const caller = await signedInCaller(tdb.prisma, email);
    await caller.team.acceptInvite({ token: (invite.link as string).split('/invite/')[1] });
    callers.push(caller);
  }
  return { projectId, callers };
}

/** A canvas's transport: the procedures, as the caller calls them. */
const transportOf = (caller: Caller, projectId: number): DraftTransport => ({
  change: (input) => caller.botSchema.change({ projectId, ...input }),
  changesSince: (revision) => caller.botSchema.changesSince({ projectId, revision }),
  load: () => caller.botSchema.get({ projectId }),
  save: (schema, expectedRevision) => caller.botSchema.save({ projectId, schema, expectedRevision }),
});
type Caller = Awaited<ReturnType<typeof signedInCaller>>;

it(`${DESIGNERS} designers making ${OPS} random edits each at once end with the same draft, losing no one's own edit`, async () => {
  const { projectId, callers } = await teamOnOneBot(DESIGNERS, 'converge');
  const [owner] = callers;
  const initial = await owner.botSchema.get({ projectId });
  const designers = callers.map(
    (caller, index) => new Designer(index, transportOf(caller, projectId), initial, random(1_000 + index)),
  );

  await Promise.all(designers.map((d) => d.run(OPS)));
  // Everyone sends what is left, then reads what the others sent, until nothing moves.
  for (let round = 0; round < 5; round++) {
    for (const d of designers) await d.flush();
    for (const d of designers) await d.sync.pull();
  }

  const stored = (await loadBotSchema(tdb.prisma, projectId)).schema;
  for (const d of designers) {
    expect(d.sync.dirty).toBe(false);
    expect(d.present).toEqual(stored);
  }
  for (const d of designers)
    for (const [name, text] of d.lastText) {
      const kept = stored.blocks.find((b) => b.name === name);
      expect(kept?.text, `${name}'s last text`).toBe(text);
    }
  const shared = stored.blocks.find((b) => b.id === 1)?.text ?? '';
  for (const d of designers) {
    expect(d.typed.length).toBeGreaterThan(5);
    for (const char of d.typed) expect(shared.split(char).length - 1, `${char} typed by ${d.index}`).toBe(1);
  }
  // Something happened: blocks of each designer, arrows, and more revisions than edits sent at once.
  for (const d of designers) expect(stored.blocks.some((b) => b.name.startsWith(`d${d.index}-`))).toBe(true);
  expect(stored.arrows.length).toBeGreaterThan(0);
}, 240_000);

it('a canvas back after a longer gap takes in what was changed meanwhile and says who changed what', async () => {
  const { projectId, callers } = await teamOnOneBot(2, 'gap');
  const [owner, other] = callers;
  const initial = await owner.botSchema.get({ projectId });
  let now = 1_000_000;
  let present = initial.schema;
  const told: RemoteChange[] = [];
  const sync = new DraftSync(
    transportOf(owner, projectId),
    initial,
    {
      present: () => present,
      onRemote: (change) => {
        present = change.apply(present, true);
        told.push(change);
      },
    },
    () => now,
  );
  // The owner's stream drops; meanwhile the other adds a block and renames the start block.
  sync.lostConnection();
  const theirs = applyDraftChanges(initial.schema, [
    { entity: 'block', op: 'add', id: 2, value: block(2, 'Prices') },
    { entity: 'block', op: 'set', id: 1, fields: { name: 'Hello' }, base: { name: 'Start' } },
  ]);
  const result = await other.botSchema.change({
    projectId,
    baseRevision: initial.revision,
    changes: diffDrafts(initial.schema, theirs),
  });
  // The owner edits offline, then is back three minutes later.
  present = applyDraftChanges(present, [
    { entity: 'block', op: 'set', id: 1, fields: { text: 'Welcome!' }, base: { text: '' } },
  ]);
  now += 180_000;
  await sync.flush();
  expect(told).toHaveLength(1);
  expect(told[0].offlineMs).toBe(180_000);
  expect(collabNotice(initial.schema, told[0], new Set())?.text).toBe(
    'While you were offline (3 min), gap-1 changed «Start» and added a block. Your edits made meanwhile are kept, merged with theirs.',
  );
  const stored = (await loadBotSchema(tdb.prisma, projectId)).schema;
  expect(present).toEqual(stored);
  expect(stored.blocks.map((b) => [b.name, b.text])).toEqual([
    ['Hello', 'Welcome!'],
    ['Prices', ''],
  ]);
  // Back without a gap: nothing to tell.
  await other.botSchema.change({
    projectId,
    baseRevision: result.revision,
    changes: [{ entity: 'block', op: 'set', id: 2, fields: { text: 'Ten euros' }, base: { text: '' } }],
  });
  await sync.pull();
  expect(told.at(-1)?.offlineMs).toBe(0);
  expect(collabNotice(stored, told.at(-1) as RemoteChange, new Set())).toBeNull();
});
