import type { BotSchema } from '@/lib/schema';
import type { DraftChange } from '@/lib/schema/draft-changes';
import type { RemoteChange } from '@/lib/schema/draft-sync';

/** What a designer is told of others' changes, with what they can do about it. */
export interface CollabNotice {
  text: string;
  /** Restores one's own: a field's value, or blocks (and their arrows) someone else deleted. */
  takeBack?: {
    label: string;
    fields: { entity: DraftChange['entity']; id: number; field: string; value: unknown }[];
    blocks: BotSchema['blocks'];
    arrows: BotSchema['arrows'];
  };
}

const nameOf = (schema: BotSchema, id: number) => {
  const block = schema.blocks.find((b) => b.id === id);
  return block?.name ? `«${block.name}»` : `block ${id}`;
};
const someone = (author: string) => author || 'Someone';

/** Offline this long, a canvas says what it took in when back (docs/builder.md, "Working together"). */
export const GAP_NOTICE_MS = 30_000;

const duration = (ms: number) => {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const minutes = Math.round(ms / 60_000);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
};

/** «A», «B» and «C»; a list of more ends with how many more. */
function listed(names: string[], most = 3): string {
  const shown = names.length > most ? [...names.slice(0, most), `${names.length - most} more`] : names;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : (shown[0] ?? '');
}

/**
 * What a canvas back from a longer gap took in: who changed which blocks while it was offline, and
 * that one's own edits made meanwhile are kept (merged by the usual rules).
 */
function gapNotice(before: BotSchema, change: RemoteChange): CollabNotice | null {
  if (change.offlineMs < GAP_NOTICE_MS) return null;
  const away = `While you were offline (${duration(change.offlineMs)})`;
  if (!change.revisions.length)
    return { text: `${away}, the bot was changed: the canvas shows it as saved now.` };
  const authors = [...new Set(change.revisions.map((r) => someone(r.author)))];
  const blocks = change.revisions.flatMap((r) => r.changes.filter((c) => c.entity === 'block'));
  const ids = (op: DraftChange['op']) => [...new Set(blocks.filter((c) => c.op === op).map((c) => c.id))];
  const added = ids('add');
  const deleted = ids('delete').filter((id) => !added.includes(id));
  const changed = ids('set').filter((id) => !added.includes(id) && !deleted.includes(id));
  const parts = [
    changed.length ? `changed ${listed(changed.map((id) => nameOf(before, id)))}` : '',
    added.length ? `added ${added.length === 1 ? 'a block' : `${added.length} blocks`}` : '',
    deleted.length ? `deleted ${listed(deleted.map((id) => nameOf(before, id)))}` : '',
  ].filter(Boolean);
  const what = parts.length ? listed(parts, parts.length) : 'changed arrows';
  const yours = change.editedOffline ? ' Your edits made meanwhile are kept, merged with theirs.' : '';
  return { text: `${away}, ${listed(authors)} ${what}.${yours}` };
}

/**
 * The notice for others' changes just applied: one's own field replaced, one's edit of a block
 * deleted meanwhile, the block one has open deleted, or what came in after a longer gap. `before` is the canvas before they
 * were applied (it still has the deleted blocks), `open` the blocks selected there.
 */
export function collabNotice(
  before: BotSchema,
  change: RemoteChange,
  open: ReadonlySet<number>,
): CollabNotice | null {
  const [replaced] = change.replacedMine;
  if (replaced) {
    const owner = replaced.entity === 'block' ? nameOf(before, replaced.id) : `arrow ${replaced.id}`;
    return {
      text: `${someone(replaced.by)} changed ${owner}, ${replaced.field}, after you: your change was replaced.`,
      takeBack: {
        label: 'Take mine back',
        fields: change.replacedMine.map(({ entity, id, field, mine }) => ({
          entity,
          id,
          field,
          value: mine,
        })),
        blocks: [],
        arrows: [],
      },
    };
  }
  const lost = change.missing.filter((m) => m.entity === 'block').map((m) => m.id);
  const deletedOpen = change.revisions.flatMap(({ author, changes }) =>
    changes
      .filter((c) => c.entity === 'block' && c.op === 'delete' && open.has(c.id))
      .map((c) => ({ author, id: c.id })),
  );
  const gone = [...new Set([...lost, ...deletedOpen.map((d) => d.id)])].filter((id) =>
    before.blocks.some((b) => b.id === id),
  );
  if (!gone.length) return gapNotice(before, change);
  const who = deletedOpen[0] ? someone(deletedOpen[0].author) : 'Someone else';
  const blocks = before.blocks.filter((b) => gone.includes(b.id));
  return {
    text: `${who} deleted ${gone.map((id) => nameOf(before, id)).join(', ')} while you were editing it: your edit is kept here.`,
    takeBack: {
      label: 'Restore with my edit',
      fields: [],
      blocks,
      arrows: before.arrows.filter(
        (a) =>
          (gone.includes(a.from) || gone.includes(a.to)) &&
          before.blocks.some((b) => b.id === a.from) &&
          before.blocks.some((b) => b.id === a.to),
      ),
    },
  };
}
