'use client';

import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { type BlockInputCheck, INPUT_TYPES, type InputType } from '@/lib/schema';
import { inputChoices, retryText } from '@/lib/schema/input-check';
import type { FieldErrors } from '@/lib/schema/validate';
import { useButtonArrows } from './button-arrows';
import { NumberField, Section } from './fields';

const TYPE_LABELS: Record<InputType, string> = {
  email: 'An e-mail address',
  phone: 'A phone number',
  number: 'A number',
  date: 'A date',
  choice: 'One of a list',
};

/** A variable name each type suggests, so a new check is valid at once. */
const SUGGESTED_VARIABLE: Record<InputType, string> = {
  email: 'client.email',
  phone: 'client.phone',
  number: 'amount',
  date: 'date',
  choice: 'choice',
};

/**
 * The block's input check (lib/schema/input-check.ts): what a reply must be, the variable a
 * valid one goes into, the re-ask text and how many wrong answers lead along the exit arrow.
 */
export function InputFields({
  idPrefix,
  value,
  buttons,
  onChange,
  onButtons,
  errors,
}: {
  idPrefix: string;
  value: BlockInputCheck | undefined;
  /** The block's own button texts: a choice input offers to show its choices as buttons. */
  buttons: readonly string[];
  onChange(value: BlockInputCheck | undefined, field: string): void;
  onButtons(texts: string[]): void;
  /** Errors under `input.` keyed by field. */
  errors: FieldErrors;
}) {
  const links = useButtonArrows();
  const exit = links?.out.find((o) => o.arrow.inputExit);
  const id = (name: string) => `${idPrefix}-${name}`;
  const set = (patch: Partial<BlockInputCheck>, field: string) =>
    value && onChange({ ...value, ...patch }, field);
  const choices = value ? inputChoices(value) : [];
  return (
    <Section title="Input check">
      <Field
        id={id('type')}
        label="The answer must be"
        hint={value ? undefined : 'Checked by the bot: a wrong answer is asked again, a right one stored.'}
      >
        <Select
          id={id('type')}
          value={value?.type ?? ''}
          onChange={(e) => {
            const type = e.target.value as InputType | '';
            if (!type) return onChange(undefined, 'type');
            onChange(
              value
                ? { ...value, type }
                : { type, variable: SUGGESTED_VARIABLE[type], choices: '', retryText: '', attempts: 3 },
              'type',
            );
          }}
        >
          <option value="">Anything (no check)</option>
          {INPUT_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABELS[t]}
            </option>
          ))}
        </Select>
      </Field>
      {value ? (
        <>
          <Field
            id={id('variable')}
            label="Store the answer in"
            error={errors.variable}
            hint={
              value.type === 'phone'
                ? 'Stored as + and digits, like +442079460958.'
                : value.type === 'date'
                  ? 'Stored as dd.mm.yyyy.'
                  : value.type === 'number'
                    ? 'Stored with a dot, like 3.5.'
                    : undefined
            }
          >
            <Input
              id={id('variable')}
              value={value.variable}
              onChange={(e) => set({ variable: e.target.value }, 'variable')}
            />
          </Field>
          {value.type === 'choice' ? (
            <Field
              id={id('choices')}
              label="Choices (separated by ;)"
              error={errors.choices}
              hint="A reply matches in any case, or by its number in the list."
            >
              <Input
                id={id('choices')}
                value={value.choices}
                placeholder="Small; Medium; Large"
                onChange={(e) => set({ choices: e.target.value }, 'choices')}
              />
            </Field>
          ) : null}
          {value.type === 'choice' && choices.length && choices.join(';') !== buttons.join(';') ? (
            <button
              type="button"
              className="text-xs text-brand-700 hover:underline"
              onClick={() => onButtons(choices)}
            >
              Show the choices as the block’s buttons
            </button>
          ) : null}
          <Field id={id('retry')} label="Re-ask text" error={errors.retryText}>
            <Input
              id={id('retry')}
              value={value.retryText}
              placeholder={retryText({ ...value, retryText: '' })}
              onChange={(e) => set({ retryText: e.target.value }, 'retryText')}
            />
          </Field>
          <NumberField
            id={id('attempts')}
            label="Wrong answers before the exit arrow"
            value={value.attempts}
            min={1}
            optional={false}
            onChange={(attempts) => set({ attempts: attempts ?? 3 }, 'attempts')}
          />
          <p className="text-xs text-slate-500" data-testid="input-exit">
            {exit
              ? `After ${value.attempts} wrong answers the client goes along arrow #${exit.arrow.id} to ${links?.blockTitle(exit.arrow.to)}.`
              : 'No exit arrow: the bot asks again until the answer is right. To give up after the wrong answers, draw an arrow and tick “Exit after wrong answers” in its editor.'}
          </p>
        </>
      ) : null}
    </Section>
  );
}
