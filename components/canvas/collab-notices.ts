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

/**
 * The notice for others' changes just applied: one's own field replaced, one's edit of a block
 * deleted meanwhile, or the block one has open deleted. `before` is the canvas before they
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
  if (!gone.length) return null;
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
