'use client';

import { ArrowDown, ArrowUp, Plus, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { IconButton } from '@/components/ui/icon-button';
import { Input, Select } from '@/components/ui/input';
import type { Button as BotButton, Buttons } from '@/lib/schema';
import { buttonList, ownButtonHandle } from '@/lib/schema/buttons';
import type { FieldErrors } from '@/lib/schema/validate';
import { ArrowButtonRows, ButtonLeadsTo, useButtonArrows } from './button-arrows';
import { CheckboxField, moveItem, NumberField, Section, useRowKeys } from './fields';

/**
 * The block's buttons (bot-semantics §5): reply or inline, text, line, URL; add, remove, reorder;
 * the hint variant (a hint and numbered options, for messengers without buttons). On the canvas
 * each also says where its arrows lead, and the buttons of arrows shown as a button follow.
 */
export function ButtonsFields({
  idPrefix,
  value,
  onChange,
  errors,
}: {
  idPrefix: string;
  value: Buttons | undefined;
  onChange(value: Buttons | undefined): void;
  /** Errors keyed like the schema: `buttons[0].text`, `buttons.buttons[0].text`, `buttons.hint`. */
  errors: FieldErrors;
}) {
  const list = buttonList(value);
  const arrows = useButtonArrows();
  const hint = value && !Array.isArray(value) ? value.hint : null;
  const rows = useRowKeys(list.length);
  const emit = (nextList: BotButton[], nextHint: string | null) =>
    onChange(
      nextHint !== null ? { hint: nextHint, buttons: nextList } : nextList.length ? nextList : undefined,
    );
  // A new button is the designer's to fill in: it joins the block (and is checked) once it has
  // text, so an untouched one is neither saved nor counted as an error. It is the last row.
  const [fresh, setFresh] = useState<BotButton | null>(null);
  const shown = fresh ? [...list, fresh] : list;
  // Add button while the last row is still empty adds nothing: it says so and goes to that row.
  const [emptyNote, setEmptyNote] = useState<string | null>(null);
  const lastEmpty = shown.length && !shown[shown.length - 1].text ? shown.length - 1 : null;
  const keyOf = (i: number) => (i < list.length ? rows.keys[i] : rows.next);
  const setButton = (i: number, patch: Partial<BotButton>) => {
    setEmptyNote(null);
    if (fresh && i === list.length) {
      const next = { ...fresh, ...patch };
      if (!next.text) return setFresh(next);
      setFresh(null);
      rows.add();
      return emit([...list, next], hint);
    }
    emit(
      list.map((b, j) => (j === i ? { ...b, ...patch } : b)),
      hint,
    );
  };
  const error = (i: number, field: string) =>
    errors[`buttons[${i}].${field}`] ?? errors[`buttons.buttons[${i}].${field}`] ?? null;
  const id = (i: number, name: string) => `${idPrefix}-button-${keyOf(i)}-${name}`;

  return (
    <Section title="Buttons">
      {shown.map((button, i) => (
        <div
          key={keyOf(i)}
          className="space-y-2 rounded-md border border-slate-200 p-2"
          data-testid="button-row"
        >
          <div className="flex items-end gap-2">
            <div className="min-w-0 flex-1">
              <Field id={id(i, 'text')} label={`Button ${i + 1} text`} error={error(i, 'text')}>
                <Input
                  id={id(i, 'text')}
                  value={button.text}
                  aria-invalid={error(i, 'text') ? true : undefined}
                  onChange={(e) => setButton(i, { text: e.target.value })}
                />
              </Field>
            </div>
            <IconButton
              label={`Move button ${i + 1} up`}
              disabled={i === 0 || i === list.length}
              onClick={() => {
                rows.move(i, i - 1);
                emit(moveItem(list, i, i - 1), hint);
              }}
            >
              <ArrowUp className="size-3.5" aria-hidden />
            </IconButton>
            <IconButton
              label={`Move button ${i + 1} down`}
              disabled={i >= list.length - 1}
              onClick={() => {
                rows.move(i, i + 1);
                emit(moveItem(list, i, i + 1), hint);
              }}
            >
              <ArrowDown className="size-3.5" aria-hidden />
            </IconButton>
            <IconButton
              label={
                arrows?.own[i]?.length ? `Remove button ${i + 1} and its arrow` : `Remove button ${i + 1}`
              }
              onClick={() => {
                setEmptyNote(null);
                if (i === list.length) return setFresh(null);
                rows.remove(i);
                emit(
                  list.filter((_, j) => j !== i),
                  hint,
                );
              }}
            >
              <X className="size-3.5" aria-hidden />
            </IconButton>
          </div>
          <div className="grid grid-cols-2 gap-2">
            <Field id={id(i, 'type')} label={`Button ${i + 1} type`}>
              <Select
                id={id(i, 'type')}
                value={button.type}
                onChange={(e) => setButton(i, { type: e.target.value as BotButton['type'] })}
              >
                <option value="reply">Reply</option>
                <option value="inline">Inline</option>
              </Select>
            </Field>
            <NumberField
              id={id(i, 'line')}
              label={`Button ${i + 1} line`}
              value={button.line}
              onChange={(line) => setButton(i, { line })}
            />
          </div>
          {i < list.length ? (
            <ButtonLeadsTo text={button.text} arrows={arrows?.own[i]} handle={ownButtonHandle(i)} />
          ) : null}
          {button.type === 'inline' ? (
            <div className="grid grid-cols-2 gap-2">
              <Field id={id(i, 'url')} label={`Button ${i + 1} URL`} error={error(i, 'url')}>
                <Input
                  id={id(i, 'url')}
                  value={button.url ?? ''}
                  onChange={(e) => setButton(i, { url: e.target.value || undefined })}
                />
              </Field>
              <Field
                id={id(i, 'callback')}
                label={`Button ${i + 1} callback data`}
                error={error(i, 'callback_data')}
              >
                <Input
                  id={id(i, 'callback')}
                  value={button.callback_data ?? ''}
                  onChange={(e) => setButton(i, { callback_data: e.target.value || undefined })}
                />
              </Field>
            </div>
          ) : null}
        </div>
      ))}
      {/* Under the last button: a new one joins the end of the list, nothing above it moves. */}
      <Button
        size="sm"
        variant="ghost"
        onClick={() => {
          const target = lastEmpty ?? list.length;
          if (lastEmpty !== null) {
            setEmptyNote(`Button ${lastEmpty + 1} is still empty: type its text before adding another.`);
          } else setFresh({ type: 'reply', text: '' });
          requestAnimationFrame(() => document.getElementById(id(target, 'text'))?.focus());
        }}
      >
        <Plus className="size-3.5" aria-hidden /> Add button
      </Button>
      {emptyNote ? (
        <p role="status" className="text-xs text-amber-700">
          {emptyNote}
        </p>
      ) : null}
      <ArrowButtonRows idPrefix={idPrefix} />
      <CheckboxField
        id={`${idPrefix}-hint-variant`}
        label="Hint variant (numbered options as text, for messengers without buttons)"
        checked={hint !== null}
        onChange={(on) => emit(list, on ? '' : null)}
      />
      {hint !== null ? (
        <Field id={`${idPrefix}-hint`} label="Hint text" error={errors['buttons.hint']}>
          <Input
            id={`${idPrefix}-hint`}
            value={hint}
            placeholder="Reply with a number:"
            onChange={(e) => emit(list, e.target.value)}
          />
        </Field>
      ) : null}
    </Section>
  );
}
