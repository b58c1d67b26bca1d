'use client';

import { Trash2 } from 'lucide-react';
import { memo, useCallback, useId } from 'react';
import { BlockRequestFields } from '@/components/block-editor/block-request-fields';
import { ConditionFields, emptyCondition } from '@/components/block-editor/condition-fields';
import { CheckboxField, KindHint, Section } from '@/components/block-editor/fields';
import { useExternalVersion, useValidatedDraft } from '@/components/block-editor/use-validated-draft';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { ARROW_KINDS, type Arrow, type Block } from '@/lib/schema';
import { buttonList, ownButtonIndexOf } from '@/lib/schema/buttons';
import { ARROW_KIND_HELP } from '@/lib/schema/kind-help';
import { errorsUnder, validateArrow } from '@/lib/schema/validate';
import { defaultTimer, TimerFields } from './timer-fields';

export interface ArrowEditorProps {
  arrow: Arrow;
  /** The blocks at its ends, for the heading. */
  from?: Block;
  to?: Block;
  /** A valid edit of the arrow; `field` names what changed. */
  onChange(arrow: Arrow, field: string): void;
  onDelete(arrowId: number): void;
}

export const arrowKindLabels = {
  condition: 'Condition',
  unconditional: 'Unconditional (any reply)',
  continue: 'Continue at once (no reply)',
  timer: 'Timer',
} as const;

/** Changes an arrow's kind, giving it the condition or timer that kind needs and dropping the other. */
export function withArrowKind(arrow: Arrow, kind: Arrow['kind']): Arrow {
  const { condition, timer, ...rest } = arrow;
  if (kind === 'condition') return { ...rest, kind, condition: condition ?? emptyCondition() };
  if (kind === 'timer') return { ...rest, kind, timer: timer ?? defaultTimer(), showAsButton: false };
  return { ...rest, kind, showAsButton: false };
}

const blockTitle = (id: number, block?: Block) => `#${id}${block?.name ? ` ${block.name}` : ''}`;

/** The side panel for one selected arrow; edits are validated by the bot schema's rules first. */
export const ArrowEditor = memo(function ArrowEditor({
  arrow,
  from,
  to,
  onChange,
  onDelete,
}: ArrowEditorProps) {
  const { version, markEmitted } = useExternalVersion(arrow);
  const emit = useCallback(
    (value: Arrow, field: string) => {
      markEmitted(value);
      onChange(value, field);
    },
    [markEmitted, onChange],
  );
  return (
    // Keyed by the arrow: another arrow opens at the top, not where this one was scrolled to.
    <aside
      key={arrow.id}
      aria-label="Arrow editor"
      data-testid="arrow-editor"
      className="h-full w-80 shrink-0 overflow-y-auto border-l border-slate-200 bg-white"
    >
      <ArrowForm
        key={`${arrow.id}:${version}`}
        arrow={arrow}
        from={from}
        to={to}
        onChange={emit}
        onDelete={onDelete}
      />
    </aside>
  );
});

function ArrowForm({ arrow, from, to, onChange, onDelete }: ArrowEditorProps) {
  const { draft, errors, edit } = useValidatedDraft(arrow, validateArrow, onChange);
  const prefix = useId();
  const id = (name: string) => `${prefix}-${name}`;
  const set = (patch: Partial<Arrow>, field: string) => edit({ ...draft, ...patch }, field);
  const invalid = Object.keys(errors).length > 0;
  // The own button of the source block this arrow leaves from (docs/builder.md), if any.
  const own = buttonList(from?.buttons);
  const ownTexts = own.map((b) => b.text);
  const ownButton = ownTexts[ownButtonIndexOf(arrow, ownTexts)];
  return (
    <form className="space-y-4 p-4" onSubmit={(e) => e.preventDefault()}>
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold">
          Arrow <span className="font-mono text-slate-500">#{draft.id}</span>
        </h2>
        <Button
          variant="ghost"
          size="sm"
          aria-label="Delete arrow"
          title="Delete arrow"
          onClick={() => onDelete(draft.id)}
        >
          <Trash2 className="size-4" aria-hidden />
        </Button>
      </div>
      <p className="-mt-2 text-xs text-slate-500">
        From {blockTitle(draft.from, from)} to {blockTitle(draft.to, to)}
      </p>
      {invalid ? (
        <Alert tone="error">Fix the highlighted fields: this change is not saved until then.</Alert>
      ) : null}
      <Field
        id={id('kind')}
        label="Arrow kind"
        error={errors.kind}
        hint={<KindHint help={ARROW_KIND_HELP[draft.kind]} />}
      >
        <Select
          id={id('kind')}
          value={draft.kind}
          onChange={(e) => edit(withArrowKind(draft, e.target.value as Arrow['kind']), 'kind')}
        >
          {ARROW_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {arrowKindLabels[kind]}
            </option>
          ))}
        </Select>
      </Field>
      {draft.kind === 'condition' ? (
        <Section title="Condition">
          {errors.condition ? <p className="text-xs text-red-600">{errors.condition}</p> : null}
          <ConditionFields
            idPrefix={id('cond')}
            value={draft.condition ?? emptyCondition()}
            errors={errorsUnder(errors, 'condition.')}
            onChange={(condition, field) => set({ condition }, `condition.${field}`)}
          />
          {ownButton ? (
            // Shown as a button too, the block would send the button twice.
            <p className="text-xs text-slate-500">
              Follows the button “{ownButton}” of block #{arrow.from}: renaming either renames the other.
            </p>
          ) : (
            <CheckboxField
              id={id('button')}
              label="Show as a button (the first alternative)"
              checked={draft.showAsButton}
              onChange={(showAsButton) => set({ showAsButton }, 'showAsButton')}
            />
          )}
        </Section>
      ) : null}
      {from?.input && (draft.kind === 'condition' || draft.kind === 'unconditional') ? (
        <Section title="Input check">
          <CheckboxField
            id={id('input-exit')}
            label="Exit after wrong answers"
            checked={draft.inputExit ?? false}
            onChange={(on) => set({ inputExit: on || undefined }, 'inputExit')}
          />
          <p className="text-xs text-slate-500">
            {draft.inputExit
              ? `Followed only after ${from.input.attempts} wrong answers to block #${from.id}'s input check, never for a right one.`
              : `Block #${from.id} checks its replies: tick this to give up along this arrow after ${from.input.attempts} wrong answers.`}
          </p>
        </Section>
      ) : null}
      {draft.kind === 'timer' ? (
        <Section title="Timer">
          {errors.timer ? <p className="text-xs text-red-600">{errors.timer}</p> : null}
          <TimerFields
            idPrefix={id('timer')}
            value={draft.timer ?? defaultTimer()}
            errors={errorsUnder(errors, 'timer.')}
            onChange={(timer) => set({ timer }, 'timer')}
          />
          <CheckboxField
            id={id('cancel-others')}
            label="Cancel the client's other timers"
            checked={draft.cancelOtherTimers}
            onChange={(cancelOtherTimers) => set({ cancelOtherTimers }, 'cancelOtherTimers')}
          />
          <CheckboxField
            id={id('cancel-left')}
            label="Cancel if the client left the block"
            checked={draft.cancelIfLeft}
            onChange={(cancelIfLeft) => set({ cancelIfLeft }, 'cancelIfLeft')}
          />
        </Section>
      ) : null}
      {/* A continue arrow has no reply to collect nor a condition to check: shown only to clear an imported value. */}
      {draft.kind !== 'continue' || draft.collectInto !== undefined ? (
        <Section title="Data collection">
          <Field
            id={id('collect')}
            label="Collect the reply into variable"
            hint="e.g. email, or client.email to store it on the client"
            error={errors.collectInto}
          >
            <Input
              id={id('collect')}
              value={draft.collectInto ?? ''}
              className="font-mono text-xs"
              aria-invalid={errors.collectInto ? true : undefined}
              onChange={(e) => set({ collectInto: e.target.value || undefined }, 'collectInto')}
            />
          </Field>
        </Section>
      ) : null}
      {draft.kind === 'condition' || draft.description !== undefined ? (
        <Section title="Description">
          <Field
            id={id('description')}
            label="What this arrow is for (optional)"
            hint="The AI choice of arrow of its block picks by it, e.g. “the client asks about delivery”."
            error={errors.description}
          >
            <Input
              id={id('description')}
              value={draft.description ?? ''}
              onChange={(e) => set({ description: e.target.value || undefined }, 'description')}
            />
          </Field>
        </Section>
      ) : null}
      {draft.kind !== 'continue' || draft.request !== undefined ? (
        <Section title="Condition request">
          <BlockRequestFields
            idPrefix={id('req')}
            title="Condition request"
            value={draft.request}
            errors={errorsUnder(errors, 'request.')}
            onChange={(request) => set({ request }, 'request')}
          />
        </Section>
      ) : null}
    </form>
  );
}
