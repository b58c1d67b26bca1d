'use client';

import { Route, Trash2, X } from 'lucide-react';
import { memo, useCallback, useId } from 'react';
import { blockKindStyle } from '@/components/canvas/block-colors';
import { withKind } from '@/components/canvas/schema-ops';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import {
  type Arrow,
  BLOCK_KIND_RULES,
  BLOCK_KINDS,
  type Block,
  type BlockKind,
  TRIGGER_KINDS,
} from '@/lib/schema';
import { buttonList } from '@/lib/schema/buttons';
import { BLOCK_KIND_HELP } from '@/lib/schema/kind-help';
import { errorsUnder, validateBlock } from '@/lib/schema/validate';
import { ActionsFields } from './actions-fields';
import { AiFields } from './ai-fields';
import { AttachmentsFields } from './attachments-fields';
import { BlockRequestFields } from './block-request-fields';
import { ArrowTargetPicker, useButtonArrows } from './button-arrows';
import { ButtonsFields } from './buttons-fields';
import { ConditionFields, emptyCondition } from './condition-fields';
import { KindHint, Section } from './fields';
import { FormulaField } from './formula-field';
import { InputFields } from './input-fields';
import { MessageTextField } from './message-text-field';
import { useExternalVersion, useValidatedDraft } from './use-validated-draft';

export interface BlockEditorProps {
  block: Block;
  /** A valid edit of the block; `field` names what changed (consecutive edits of one field are one undo step). */
  onChange(block: Block, field: string): void;
  onDelete(blockId: number): void;
}

/** Fields the form takes in without starting over: edited together, or changed on the canvas. */
const LIVE_FIELDS = ['name', 'text', 'formula', 'position', 'size'];

/**
 * The side panel for one selected block. Every edit is validated with the bot schema's zod
 * schemas before it enters the schema; field errors are shown and an invalid edit is not saved.
 */
export const BlockEditor = memo(function BlockEditor({ block, onChange, onDelete }: BlockEditorProps) {
  const { version, markEmitted } = useExternalVersion(block, LIVE_FIELDS);
  const emit = useCallback(
    (value: Block, field: string) => {
      markEmitted(value);
      onChange(value, field);
    },
    [markEmitted, onChange],
  );
  return (
    // Keyed by the block: another block opens at the top, not where this one was scrolled to.
    <aside
      key={block.id}
      aria-label="Block editor"
      data-testid="block-editor"
      className="h-full w-80 shrink-0 overflow-y-auto border-l border-slate-200 bg-white"
    >
      <BlockForm key={`${block.id}:${version}`} block={block} onChange={emit} onDelete={onDelete} />
    </aside>
  );
});

function BlockForm({ block, onChange, onDelete }: BlockEditorProps) {
  const { draft, errors, edit } = useValidatedDraft(block, validateBlock, onChange);
  const prefix = useId();
  const id = (name: string) => `${prefix}-${name}`;
  const set = (patch: Partial<Block>, field: string) => edit({ ...draft, ...patch }, field);
  const isComment = draft.kind === 'comment';
  const invalid = Object.keys(errors).length > 0;

  return (
    <form className="space-y-4 p-4" onSubmit={(e) => e.preventDefault()}>
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold">
          {blockKindStyle[draft.kind].label} block{' '}
          <span className="font-mono text-slate-500">#{draft.id}</span>
        </h2>
        <div className="flex shrink-0 items-center gap-1">
          <CopyButton value={String(draft.id)} label="Copy id" />
          <Button
            variant="ghost"
            size="sm"
            aria-label="Delete block"
            title="Delete block"
            onClick={() => onDelete(draft.id)}
          >
            <Trash2 className="size-4" aria-hidden />
          </Button>
        </div>
      </div>
      <p className="-mt-2 text-xs text-slate-500">
        Block id <span className="font-mono">{draft.id}</span> is the API&apos;s message_id.
      </p>
      {invalid ? (
        <Alert tone="error">Fix the highlighted fields: this change is not saved until then.</Alert>
      ) : null}
      <Field id={id('name')} label="Name" error={errors.name}>
        <Input id={id('name')} value={draft.name} onChange={(e) => set({ name: e.target.value }, 'name')} />
      </Field>
      <Field
        id={id('kind')}
        label="Kind"
        error={errors.kind}
        hint={<KindHint help={BLOCK_KIND_HELP[draft.kind]} />}
      >
        <Select
          id={id('kind')}
          value={draft.kind}
          onChange={(e) => edit(withKind(draft, e.target.value as BlockKind), 'kind')}
        >
          {BLOCK_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {blockKindStyle[kind].label}
            </option>
          ))}
        </Select>
      </Field>
      {TRIGGER_KINDS.has(draft.kind) ? (
        <Section title="Trigger">
          <ConditionFields
            idPrefix={id('trigger')}
            value={draft.trigger ?? emptyCondition()}
            errors={errorsUnder(errors, 'trigger.')}
            onChange={(trigger, field) => set({ trigger }, `trigger.${field}`)}
          />
        </Section>
      ) : null}
      <MessageTextField
        id={id('text')}
        label={isComment ? 'Note' : 'Text'}
        value={draft.text}
        error={errors.text}
        onChange={(text) => set({ text }, 'text')}
      />
      {isComment ? null : (
        <>
          <AttachmentsFields
            idPrefix={id('att')}
            value={draft.attachments}
            errors={errors}
            onChange={(attachments) => set({ attachments }, 'attachments')}
          />
          <ButtonsFields
            idPrefix={id('btn')}
            value={draft.buttons}
            errors={errors}
            onChange={(buttons) => set({ buttons }, 'buttons')}
          />
          {BLOCK_KIND_RULES[draft.kind].movesClient ? (
            <InputFields
              idPrefix={id('input')}
              value={draft.input}
              buttons={buttonList(draft.buttons).map((b) => b.text)}
              errors={errorsUnder(errors, 'input.')}
              onChange={(input, field) => set({ input }, `input.${field}`)}
              onButtons={(texts) =>
                set({ buttons: texts.map((text) => ({ type: 'reply' as const, text })) }, 'buttons')
              }
            />
          ) : null}
          <ArrowsSection />
          <Section title="Formula">
            <FormulaField
              label="Formula"
              value={draft.formula}
              error={errors.formula}
              hint="Runs top to bottom when a client enters the block"
              onChange={(formula) => set({ formula }, 'formula')}
            />
          </Section>
          <Section title="Block request">
            <BlockRequestFields
              idPrefix={id('req')}
              value={draft.request}
              errors={errorsUnder(errors, 'request.')}
              onChange={(request) => set({ request }, 'request')}
            />
          </Section>
          <AiFields
            idPrefix={id('ai')}
            value={draft.ai}
            errors={errorsUnder(errors, 'ai.')}
            onChange={(ai, field) => set({ ai }, field)}
          />
          <ActionsFields
            idPrefix={id('act')}
            value={draft.actions}
            onChange={(actions) => set({ actions }, 'actions')}
          />
        </>
      )}
    </form>
  );
}

/**
 * On the canvas: the block's arrows (kind, condition, target), each opened in the arrow editor
 * or deleted here, and a new one drawn by choosing its target (the keyboard's way).
 */
function ArrowsSection() {
  const links = useButtonArrows();
  if (!links) return null;
  return (
    <Section title="Arrows">
      {links.out.length ? (
        <ul className="space-y-1" aria-label="Arrows out of this block">
          {links.out.map(({ arrow, label }) => (
            <li key={arrow.id} className="flex items-center gap-1 text-xs text-slate-700">
              <button
                type="button"
                className="flex min-w-0 flex-1 items-center gap-1 rounded px-1 py-0.5 text-left hover:bg-slate-100"
                onClick={() => links.onOpenArrow(arrow.id)}
                title="Open in the arrow editor"
              >
                <Route className="size-3 shrink-0 text-slate-400" aria-hidden />
                <span className="shrink-0 font-mono text-slate-500">#{arrow.id}</span>
                <span className="shrink-0 text-slate-500">{ARROW_KIND_WORDS[arrow.kind]}</span>
                <span className="min-w-0 truncate">{arrow.kind === 'condition' ? label : ''}</span>
                <span className="shrink-0">→ {links.blockTitle(arrow.to)}</span>
              </button>
              <button
                type="button"
                aria-label={`Delete arrow #${arrow.id}`}
                title={`Delete arrow #${arrow.id}`}
                className="inline-flex size-6 shrink-0 items-center justify-center rounded text-slate-500 hover:bg-slate-100"
                onClick={() => links.onRemoveArrow(arrow.id)}
              >
                <X className="size-3.5" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-slate-500">No arrow leaves this block yet.</p>
      )}
      <p className="text-xs text-slate-500">
        Drag from the block’s handle on the canvas to another block, or choose the block here.
      </p>
      <ArrowTargetPicker label="New arrow to" handle={null} />
    </Section>
  );
}

/** An arrow's kind in the block editor's list, as the canvas words it. */
const ARROW_KIND_WORDS: Record<Arrow['kind'], string> = {
  condition: 'if',
  unconditional: 'any reply',
  continue: 'continue',
  timer: 'timer',
};
