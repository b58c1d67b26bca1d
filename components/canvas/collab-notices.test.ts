import { describe, expect, it } from 'vitest';
import type { BotSchema } from '@/lib/schema';
import type { RemoteChange } from '@/lib/schema/draft-sync';
import { plainArrow as arrow, stateBlock } from '@/lib/schema/testing/draft-fixtures';
import { collabNotice } from './collab-notices';

const before: BotSchema = {
  format: 'blockbot/schema@1',
  blocks: [stateBlock(1, { name: 'Welcome' }), stateBlock(2, { name: 'Prices' })],
  arrows: [arrow(1, 1, 2)],
};
const change = (over: Partial<RemoteChange>): RemoteChange => ({
  apply: (s) => s,
  revisions: [],
  missing: [],
  replacedMine: [],
  offlineMs: 0,
  editedOffline: false,
  ...over,
});

describe("the notice of others' changes", () => {
  it('names who replaced one of my fields, the block and the field, and offers my value back', () => {
    const notice = collabNotice(
      before,
      change({ replacedMine: [{ entity: 'block', id: 2, field: 'text', by: 'Bob', mine: 'Mine' }] }),
      new Set(),
    );
    expect(notice?.text).toBe('Bob changed «Prices», text, after you: your change was replaced.');
    expect(notice?.takeBack).toMatchObject({
      label: 'Take mine back',
      fields: [{ entity: 'block', id: 2, field: 'text', value: 'Mine' }],
    });
  });

  it('offers back a block deleted while I had it open, with its arrows, naming who deleted it', () => {
    const notice = collabNotice(
      before,
      change({ revisions: [{ author: 'Ann', changes: [{ entity: 'block', op: 'delete', id: 2 }] }] }),
      new Set([2]),
    );
    expect(notice?.text).toBe('Ann deleted «Prices» while you were editing it: your edit is kept here.');
    expect(notice?.takeBack?.blocks).toEqual([before.blocks[1]]);
    expect(notice?.takeBack?.arrows).toEqual(before.arrows);
  });

  it('says nothing of a block deleted that I did not have open, nor of changes that touch nothing of mine', () => {
    const deleted = change({
      revisions: [{ author: 'Ann', changes: [{ entity: 'block', op: 'delete', id: 2 }] }],
    });
    expect(collabNotice(before, deleted, new Set([1]))).toBeNull();
    expect(collabNotice(before, change({}), new Set([2]))).toBeNull();
  });

  it('offers back my edit of a block that was gone when it reached the server', () => {
    const notice = collabNotice(
      before,
      change({
        missing: [{ entity: 'block', op: 'set', id: 2, fields: { text: 'late' }, base: { text: '' } }],
      }),
      new Set(),
    );
    expect(notice?.text).toMatch(/^Someone else deleted «Prices»/);
    expect(notice?.takeBack?.blocks.map((b) => b.id)).toEqual([2]);
  });

  it('after a longer gap, says who changed which blocks meanwhile; after a short one, nothing', () => {
    const revisions: RemoteChange['revisions'] = [
      {
        author: 'Bob',
        changes: [
          { entity: 'block', op: 'set', id: 2, fields: { text: 'New' }, base: { text: 'Old' } },
          { entity: 'block', op: 'add', id: 3, value: stateBlock(3) },
        ],
      },
      { author: 'Ann', changes: [{ entity: 'block', op: 'delete', id: 1 }] },
    ];
    expect(collabNotice(before, change({ revisions, offlineMs: 5_000 }), new Set())).toBeNull();
    expect(collabNotice(before, change({ revisions, offlineMs: 150_000 }), new Set())?.text).toBe(
      'While you were offline (3 min), Bob and Ann changed «Prices», added a block and deleted «Welcome».',
    );
    expect(
      collabNotice(before, change({ revisions, offlineMs: 150_000, editedOffline: true }), new Set())?.text,
    ).toMatch(/deleted «Welcome»\. Your edits made meanwhile are kept, merged with theirs\.$/);
    expect(collabNotice(before, change({ offlineMs: 45_000 }), new Set())?.text).toBe(
      'While you were offline (45 s), the bot was changed: the canvas shows it as saved now.',
    );
  });
});
