import { normaliseText } from '@/lib/matching';
import type { Arrow, Block, Button, Buttons, Condition } from './bot-schema';

/**
 * Buttons and the arrows they lead along, as one model (docs/builder.md, "Buttons and their
 * arrows"). A block's buttons are its own buttons, then one per arrow shown as a button (the
 * order the engine sends them in). Each has a handle on the canvas, and an arrow leaves from it:
 * - an arrow shown as a button leaves from the button it adds;
 * - a condition arrow that matches exactly and whose first alternative is the text of one of
 *   the block's own buttons (case and spacing ignored, as the engine matches) leaves from that
 *   button (the first one, when texts repeat);
 * - any other arrow leaves from the block itself.
 * Pressing a button sends its text, so such an arrow is what a press follows; renaming the
 * button renames the arrow's first alternative, and removing the button removes its arrows.
 */

/** The buttons of a list, whichever variant (a plain list or the hint variant). */
export function buttonList(buttons: Buttons | undefined): Button[] {
  if (!buttons) return [];
  return Array.isArray(buttons) ? buttons : buttons.buttons;
}

/** A condition's first alternative, trimmed. */
export function firstAlternative(condition: Pick<Condition, 'alternatives'> | undefined): string {
  return (condition?.alternatives ?? '').split(';')[0].trim();
}

/** The button an arrow shown as a button adds to its source block, or '' when it adds none. */
export function arrowButtonText(arrow: Arrow): string {
  return arrow.showAsButton && arrow.kind === 'condition' ? firstAlternative(arrow.condition) : '';
}

/** A text an exact-match alternative can be: not empty, and without the `;` that splits them. */
export const isMatchableText = (text: string) => text.trim() !== '' && !text.includes(';');

/** Canvas handle ids: the block's own button at an index, or the button an arrow adds. */
export const ownButtonHandle = (index: number) => `b${index}`;
export const arrowButtonHandle = (arrowId: number) => `a${arrowId}`;

/** The index of the block's own button an arrow leaves from, or -1 (see the model above). */
export function ownButtonIndexOf(arrow: Arrow, ownTexts: readonly string[]): number {
  if (arrow.kind !== 'condition' || arrow.showAsButton || arrow.condition?.match !== 'exact') return -1;
  // Matched as the engine matches a press (case and spacing ignored), so the canvas links what runs.
  const text = normaliseText(firstAlternative(arrow.condition));
  return text ? ownTexts.findIndex((t) => normaliseText(t) === text) : -1;
}

/** The handle an arrow leaves its block from: a button's, or null for the block's own. */
export function sourceHandleOf(arrow: Arrow, ownTexts: readonly string[]): string | null {
  if (arrowButtonText(arrow)) return arrowButtonHandle(arrow.id);
  const index = ownButtonIndexOf(arrow, ownTexts);
  return index >= 0 ? ownButtonHandle(index) : null;
}

/** The text of the button behind a handle of a block, or null (the block's own handle). */
export function buttonTextOfHandle(
  block: Block,
  arrows: readonly Arrow[],
  handle: string | null | undefined,
): string | null {
  if (!handle) return null;
  const index = /^b(\d+)$/.exec(handle);
  if (index) return buttonList(block.buttons)[Number(index[1])]?.text.trim() || null;
  const arrowId = /^a(\d+)$/.exec(handle);
  const arrow = arrowId && arrows.find((a) => a.id === Number(arrowId[1]) && a.from === block.id);
  return (arrow && arrowButtonText(arrow)) || null;
}

/** The condition with its first alternative replaced by `text`; the other alternatives kept as written. */
export function withFirstAlternative(condition: Condition, text: string): Condition {
  const rest = condition.alternatives.indexOf(';');
  return { ...condition, alternatives: rest < 0 ? text : text + condition.alternatives.slice(rest) };
}

const renamed = (arrow: Arrow, text: string): Arrow =>
  arrow.condition ? { ...arrow, condition: withFirstAlternative(arrow.condition, text) } : arrow;

/**
 * The arrows after a block's own buttons were edited from `before` to `after`: a renamed
 * button's arrows follow its new text (unless the text cannot be matched exactly), a removed
 * button's arrows go (unless another button keeps its text). Reordering changes nothing. Other
 * arrows, and the same array when nothing changes, are returned as they were.
 */
export function syncButtonArrows(arrows: readonly Arrow[], before: Block, after: Block): readonly Arrow[] {
  const old = buttonList(before.buttons).map((b) => b.text);
  const now = buttonList(after.buttons).map((b) => b.text);
  const sameTexts = [...old].sort().join('\n') === [...now].sort().join('\n');
  if (sameTexts) return arrows;
  const renames = new Map<number, string>();
  const removed = new Set<number>();
  if (old.length === now.length) {
    old.forEach((text, i) => {
      if (text !== now[i] && isMatchableText(now[i])) renames.set(i, now[i].trim());
    });
  } else if (now.length === old.length - 1) {
    const gone = old.findIndex((text, i) => text !== now[i]);
    if (!now.some((t) => normaliseText(t) === normaliseText(old[gone]))) removed.add(gone);
  }
  if (!renames.size && !removed.size) return arrows;
  let changed = false;
  const next = arrows.flatMap((arrow) => {
    if (arrow.from !== before.id) return [arrow];
    const index = ownButtonIndexOf(arrow, old);
    if (removed.has(index)) {
      changed = true;
      return [];
    }
    const text = renames.get(index);
    if (text === undefined) return [arrow];
    changed = true;
    return [renamed(arrow, text)];
  });
  return changed ? next : arrows;
}

/**
 * The block and arrows after an arrow was edited from `before` to `after`: when it left from one
 * of the block's own buttons and its first alternative changed (still an exact match), the
 * button takes the new text, and so do the button's other arrows. Else nothing changes (null).
 */
export function syncArrowButton(
  block: Block,
  arrows: readonly Arrow[],
  before: Arrow,
  after: Arrow,
): { block: Block; arrows: readonly Arrow[] } | null {
  const own = buttonList(block.buttons);
  const index = ownButtonIndexOf(
    before,
    own.map((b) => b.text),
  );
  const text = firstAlternative(after.condition);
  if (index < 0 || after.kind !== 'condition' || after.condition?.match !== 'exact') return null;
  if (after.showAsButton || text === firstAlternative(before.condition) || !isMatchableText(text))
    return null;
  const list = own.map((b, i) => (i === index ? { ...b, text } : b));
  const buttons = Array.isArray(block.buttons) ? list : { hint: block.buttons?.hint ?? '', buttons: list };
  const next = { ...block, buttons };
  const synced = syncButtonArrows(arrows, block, next);
  return { block: next, arrows: synced.map((a) => (a.id === after.id ? after : a)) };
}

/** Arrows by the button they leave from: per own button (by index), and the arrows shown as a button. */
export function buttonArrowsOf(
  block: Block,
  arrows: readonly Arrow[],
): { own: Arrow[][]; shown: { arrow: Arrow; text: string }[] } {
  const texts = buttonList(block.buttons).map((b) => b.text);
  const own: Arrow[][] = texts.map(() => []);
  const shown: { arrow: Arrow; text: string }[] = [];
  for (const arrow of arrows) {
    if (arrow.from !== block.id) continue;
    const text = arrowButtonText(arrow);
    if (text) shown.push({ arrow, text });
    else own[ownButtonIndexOf(arrow, texts)]?.push(arrow);
  }
  return { own, shown };
}
