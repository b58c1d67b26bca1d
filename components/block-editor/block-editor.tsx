'use client';

import { Trash2 } from 'lucide-react';
import { memo, useCallback, useId } from 'react';
import { blockKindStyle } from '@/components/canvas/block-colors';
import { withKind } from '@/components/canvas/schema-ops';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { BLOCK_KINDS, type Block, type BlockKind, TRIGGER_KINDS } from '@/lib/schema';
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
import { MessageTextField } from './message-text-field';
import { useExternalVersion, useValidatedDraft } from './use-validated-draft';

export interface BlockEditorProps {
  block: Block;
  /** A valid edit of the block; `field` names what changed (consecutive edits of one field are one undo step). */
  onChange(block: Block, field: string): void;
  onDelete(blockId: number): void;
}

/**
 * The side panel for one selected block. Every edit is validated with the bot schema's zod
 * schemas before it enters the schema; field errors are shown and an invalid edit is not saved.
 */
export const BlockEditor = memo(function BlockEditor({ block, onChange, onDelete }: BlockEditorProps) {
  const { version, markEmitted } = useExternalVersion(block);
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
          <NewArrowSection />
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

/** On the canvas: an arrow out of the block drawn by choosing its target (the keyboard's way). */
function NewArrowSection() {
  if (!useButtonArrows()) return null;
  return (
    <Section title="Arrows">
      <p className="text-xs text-slate-500">
        Drag from the block’s handle on the canvas to another block, or choose the block here.
      </p>
      <ArrowTargetPicker label="New arrow to" handle={null} />
    </Section>
  );
}
