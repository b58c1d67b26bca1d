'use client';

import { Route, X } from 'lucide-react';
import { createContext, use, useCallback, useId } from 'react';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import type { Arrow } from '@/lib/schema';
import { isMatchableText, withFirstAlternative } from '@/lib/schema/buttons';
import type { Validated } from '@/lib/schema/validate';
import { useExternalVersion, useValidatedDraft } from './use-validated-draft';

/**
 * The arrows of the edited block's buttons (lib/schema/buttons.ts), given by the canvas: per own
 * button where it leads, and the buttons its arrows shown as a button add, edited here as
 * buttons. Null outside the canvas.
 */
export interface ButtonArrows {
  /** Per own button, by index: the arrows a press follows. */
  own: readonly (readonly Arrow[])[];
  /** Arrows shown as a button, with the button's text. */
  shown: readonly { arrow: Arrow; text: string }[];
  /** Every arrow out of the block, in id order (the order the engine checks them), with its canvas label. */
  out: readonly { arrow: Arrow; label: string }[];
  /** `#2 Prices`: how a target block is named. */
  blockTitle(id: number): string;
  onArrowChange(arrow: Arrow, field: string): void;
  /** Deletes an arrow; the block stays selected. */
  onRemoveArrow(arrowId: number): void;
  /** Selects an arrow on the canvas (its editor opens). */
  onOpenArrow(arrowId: number): void;
  /** Blocks an arrow can lead to, with their titles. */
  targets: readonly { id: number; title: string }[];
  /** Draws an arrow from the edited block (from a button's handle, or its own: null) to a block. */
  onConnect(to: number, handle: string | null): void;
}
export const ButtonArrowsContext = createContext<ButtonArrows | null>(null);
export const useButtonArrows = () => use(ButtonArrowsContext);

/**
 * Draws an arrow by choosing its target from a list: the keyboard's (and a screen reader's) way
 * to do what dragging from a handle does. The new arrow is selected, so its editor opens.
 */
export function ArrowTargetPicker({ label, handle }: { label: string; handle: string | null }) {
  const links = useButtonArrows();
  const id = useId();
  if (!links) return null;
  return (
    <div className="flex items-center gap-2 text-xs text-slate-600">
      <label htmlFor={id} className="shrink-0">
        {label}
      </label>
      <Select
        id={id}
        value=""
        className="h-7 min-w-0 flex-1 text-xs"
        onChange={(e) => e.target.value && links.onConnect(Number(e.target.value), handle)}
      >
        <option value="">Choose a block…</option>
        {links.targets.map((t) => (
          <option key={t.id} value={t.id}>
            {t.title}
          </option>
        ))}
      </Select>
    </div>
  );
}

/** Under an own button: the blocks its arrows lead to, or how to draw one. */
export function ButtonLeadsTo({
  text,
  arrows,
  handle,
}: {
  text: string;
  arrows: readonly Arrow[] | undefined;
  /** The button's handle, which a new arrow leaves from. */
  handle: string;
}) {
  const links = useButtonArrows();
  if (!links) return null;
  if (!isMatchableText(text))
    return <p className="text-xs text-slate-500">A button with “;” in its text cannot have an arrow.</p>;
  if (!arrows?.length)
    return (
      <div className="space-y-1">
        <p className="text-xs text-slate-500">
          No arrow yet: drag from the button’s handle on the canvas to the block it leads to, or choose it
          here.
        </p>
        <ArrowTargetPicker label={`Button “${text}” leads to`} handle={handle} />
      </div>
    );
  return (
    <p className="flex flex-wrap items-center gap-x-2 text-xs text-slate-500">
      Leads to
      {arrows.map((arrow) => (
        <button
          key={arrow.id}
          type="button"
          className="inline-flex items-center gap-0.5 text-brand-700 hover:underline"
          onClick={() => links.onOpenArrow(arrow.id)}
        >
          <Route className="size-3" aria-hidden />
          {links.blockTitle(arrow.to)}
        </button>
      ))}
    </p>
  );
}

const validateText = (text: string): Validated<string> =>
  isMatchableText(text)
    ? { ok: true, value: text.trim() }
    : {
        ok: false,
        errors: { text: text.trim() ? 'an arrow’s button cannot contain “;”' : 'button text is empty' },
      };

/**
 * The buttons the block's arrows shown as a button add: a group of their own, named by their
 * arrow, since the engine sends them after the block's own buttons (adding one of those never
 * renumbers these).
 */
export function ArrowButtonRows({ idPrefix }: { idPrefix: string }) {
  const links = useButtonArrows();
  if (!links?.shown.length) return null;
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-500">
        Sent after the buttons above, added by arrows shown as a button:
      </p>
      {links.shown.map(({ arrow, text }) => (
        <ArrowButtonRow
          key={arrow.id}
          id={`${idPrefix}-arrow-button-${arrow.id}`}
          arrow={arrow}
          text={text}
          links={links}
        />
      ))}
    </div>
  );
}

function ArrowButtonRow(props: { id: string; arrow: Arrow; text: string; links: ButtonArrows }) {
  // The field follows the arrow when it changes elsewhere (its editor, undo), not its own edits.
  const { version, markEmitted } = useExternalVersion(props.text);
  return <ArrowButtonField key={version} {...props} markEmitted={markEmitted} />;
}

function ArrowButtonField({
  id,
  arrow,
  text,
  links,
  markEmitted,
}: {
  id: string;
  arrow: Arrow;
  text: string;
  links: ButtonArrows;
  markEmitted(text: string): void;
}) {
  const label = `Arrow #${arrow.id}’s button`;
  const rename = useCallback(
    (next: string) => {
      markEmitted(next);
      if (arrow.condition)
        links.onArrowChange(
          { ...arrow, condition: withFirstAlternative(arrow.condition, next) },
          'condition.alternatives',
        );
    },
    [arrow, links, markEmitted],
  );
  const { draft, errors, edit } = useValidatedDraft(text, validateText, rename);
  const hintId = useId();
  return (
    <div className="space-y-1 rounded-md border border-dashed border-slate-300 p-2">
      <div className="flex items-end gap-2">
        <div className="min-w-0 flex-1">
          <Field id={id} label={`${label} text`} error={errors.text}>
            <Input
              id={id}
              value={draft}
              aria-describedby={hintId}
              aria-invalid={errors.text ? true : undefined}
              onChange={(e) => edit(e.target.value, 'text')}
            />
          </Field>
        </div>
        <button
          type="button"
          aria-label={`Remove ${label.toLowerCase()} and its arrow`}
          title={`Remove ${label.toLowerCase()} and its arrow`}
          onClick={() => links.onRemoveArrow(arrow.id)}
          className="inline-flex size-7 items-center justify-center rounded text-slate-600 hover:bg-slate-100"
        >
          <X className="size-3.5" aria-hidden />
        </button>
      </div>
      <p id={hintId} className="text-xs text-slate-500">
        Shown by{' '}
        <button
          type="button"
          className="text-brand-700 hover:underline"
          onClick={() => links.onOpenArrow(arrow.id)}
        >
          arrow #{arrow.id}
        </button>{' '}
        to {links.blockTitle(arrow.to)}: its text is the arrow’s condition.
      </p>
    </div>
  );
}
