'use client';

import { type ReactFlowState, useStore, ViewportPortal } from '@xyflow/react';
import { MousePointer2 } from 'lucide-react';
import { initialOf, type Presence, presenceColour } from '@/lib/schema/draft-presence';
import { type PointerStore, usePointers } from './pointer-store';

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

/** The toolbar's switch for the other designers' pointers on the canvas. */
export function PointersToggle({ shown, onToggle }: { shown: boolean; onToggle(): void }) {
  return (
    <button
      type="button"
      aria-pressed={shown}
      title={shown ? "Hide the others' pointers" : "Show the others' pointers on the canvas"}
      onClick={onToggle}
      className="inline-flex h-8 items-center gap-1.5 rounded-md px-2 text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500 aria-pressed:bg-slate-100"
    >
      <MousePointer2 className="size-4" aria-hidden />
      {shown ? 'Hide pointers' : 'Show pointers'}
    </button>
  );
}

const zoomOf = (s: ReactFlowState) => s.transform[2];

/**
 * Each other designer's pointer on the canvas, in their colour with their name: placed in flow
 * coordinates inside the viewport (so it stays put as this canvas pans and zooms), drawn at the
 * same size at any zoom, and never in the way of a click.
 */
export function PresencePointers({ others, store }: { others: readonly Presence[]; store: PointerStore }) {
  const pointers = usePointers(store);
  const zoom = useStore(zoomOf);
  // Only those still here: a pointer goes with its person.
  const shown = others.flatMap((p) => {
    const at = pointers.get(p.tab);
    return at ? [{ p, at }] : [];
  });
  if (!shown.length) return null;
  return (
    <ViewportPortal>
      {shown.map(({ p, at }) => (
        <div
          key={p.tab}
          data-testid="presence-pointer"
          className="pointer-events-none absolute top-0 left-0 z-[2000] flex items-start"
          style={{ transform: `translate(${at.x}px, ${at.y}px) scale(${1 / zoom})`, transformOrigin: '0 0' }}
        >
          <MousePointer2
            className="size-5 -translate-x-[3px] -translate-y-[3px]"
            style={{ color: presenceColour(p.memberId), fill: presenceColour(p.memberId) }}
            aria-hidden
          />
          <span
            className="mt-4 -ml-1 rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-white shadow"
            style={{ background: presenceColour(p.memberId) }}
          >
            {p.name || 'Someone'}
          </span>
        </div>
      ))}
    </ViewportPortal>
  );
}
