import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slotSpacing } from '@/lib/tg/pacing';
import { takeSlot } from '@/server/db/channel-pacing-sql';
import { plainSql } from '@/server/db/raw-sql';
import { createTestDatabase, type TestDatabase } from '@/server/db/test-support';
import { createProject } from '@/server/projects/project-service';

/**
 * A send's slot, as every process takes it from the bot's row. A send that came too late to
 * its slot takes another; the slot it abandoned must not space its chat from the new one, or a
 * late send waits the chat's whole interval more.
 */

let tdb: TestDatabase;
let channelId: number;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const project = await createProject(tdb.prisma, { name: 'pacing', plan: 'business' });
  channelId = (
    await tdb.prisma.channel.create({
      data: { projectId: project.id, kind: 'tg', clientType: 1, groupId: 'pace_bot' },
    })
  ).id;
});
afterAll(() => tdb?.close());

// A group: its sends are spaced 3 s apart, far more than two statements take.
const group = '-1001';
const spacing = slotSpacing(group);

const take = async (chat: string, releasing: string | null = null) => {
  const [slot] = await plainSql(tdb.prisma).run(takeSlot, { channelId, chat, releasing, ...spacing });
  return { ...slot, chatAt: Number(slot.chatEntry) };
};

describe('taking a slot', () => {
  it('spaces a chat’s sends by its interval', async () => {
    const first = await take(group);
    const second = await take(group);
    expect(second.chatAt - first.chatAt).toBeGreaterThanOrEqual(spacing.chatMs);
  });

  it('gives a late send a new slot not spaced from the one it abandoned', async () => {
    const chat = '-1002';
    const abandoned = await take(chat);
    const again = await take(chat, abandoned.chatEntry);
    // Spaced by the bot's interval only (and the time between the two statements).
    expect(again.chatAt - abandoned.chatAt).toBeLessThan(spacing.chatMs);
  });

  it('still spaces it from a slot another send of the chat took meanwhile', async () => {
    const chat = '-1003';
    const abandoned = await take(chat);
    const other = await take(chat);
    const again = await take(chat, abandoned.chatEntry);
    expect(again.chatAt - other.chatAt).toBeGreaterThanOrEqual(spacing.chatMs);
  });
});
