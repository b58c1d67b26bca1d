'use client';

import { initialOf, type Presence, presenceColour } from '@/lib/schema/draft-presence';

/** A character safe inside a CSS string (an initial may be a quote or a backslash). */
const cssText = (text: string) => text.replace(/["\\\n]/g, '?');

/**
 * Each other designer's selected blocks outlined in their colour with their initial, as a style
 * rule: a block re-renders for none of it (the simulator's current block is drawn the same way).
 */
export function PresenceOutlines({ others }: { others: readonly Presence[] }) {
  const rules = others.flatMap((p) =>
    p.selection.map((id) => {
      const block = `.react-flow__node [data-block-id="${id}"]`;
      const colour = presenceColour(p.memberId);
      return `${block} { outline: 2px dashed ${colour}; outline-offset: 4px; position: relative; }
${block}::before { content: "${cssText(initialOf(p.name))}"; position: absolute; top: -14px; right: -10px; width: 18px; height: 18px; border-radius: 9999px; background: ${colour}; color: white; font: 600 11px/18px sans-serif; text-align: center; }`;
    }),
  );
  return rules.length ? <style>{rules.join('\n')}</style> : null;
}

/** Who else has the bot open, in the toolbar: an initial in their colour each, their name on hover. */
export function PresenceAvatars({ others }: { others: readonly Presence[] }) {
  if (!others.length) return null;
  return (
    <ul aria-label="Also editing this bot" className="flex items-center -space-x-1.5">
      {others.map((p) => (
        <li
          key={p.tab}
          title={`${p.name || 'Someone'}${p.selection.length ? ` (on block #${p.selection[0]})` : ''}`}
          className="flex size-7 items-center justify-center rounded-full border-2 border-white text-xs font-semibold text-white"
          style={{ background: presenceColour(p.memberId) }}
        >
          <span aria-hidden>{initialOf(p.name)}</span>
          <span className="sr-only">{p.name || 'Someone'}</span>
        </li>
      ))}
    </ul>
  );
}
