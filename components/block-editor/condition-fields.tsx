'use client';

import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { type Condition, MATCH_MODES } from '@/lib/schema';
import { type FieldErrors, regexIssue } from '@/lib/schema/validate';
import { FormulaField } from './formula-field';

const matchLabels = {
  exact: 'Exact',
  keywords: 'Keywords',
  fuzzy: 'Fuzzy (70 %)',
  regex: 'Regular expression',
} as const;

export const emptyCondition = (): Condition => ({
  alternatives: '',
  match: 'exact',
  expression: '',
  ignore: '',
});

/**
 * A condition (bot-semantics §2): alternatives separated by `;`, match mode, comparison expression,
 * strings to ignore. Used by start-block triggers, quick replies and condition arrows. A regex that
 * does not compile is shown at the alternatives; the expression is edited in the formula editor.
 */
export function ConditionFields({
  idPrefix,
  value,
  onChange,
  errors = {},
}: {
  idPrefix: string;
  value: Condition;
  /** `field` names the part that changed (`alternatives`, `match`, …). */
  onChange(value: Condition, field: keyof Condition): void;
  errors?: FieldErrors;
}) {
  const id = (name: string) => `${idPrefix}-condition-${name}`;
  const set = (patch: Partial<Condition>) =>
    onChange({ ...value, ...patch }, Object.keys(patch)[0] as keyof Condition);
  const alternativesError = regexIssue(value) ?? errors.alternatives ?? null;
  return (
    <div className="space-y-3">
      <Field
        id={id('alternatives')}
        label="Alternatives"
        hint="Separated by ; — e.g. Prices;price;cost"
        error={alternativesError}
      >
        <Input
          id={id('alternatives')}
          value={value.alternatives}
          aria-invalid={alternativesError ? true : undefined}
          onChange={(e) => set({ alternatives: e.target.value })}
        />
      </Field>
      <Field id={id('match')} label="Match mode" error={errors.match}>
        <Select
          id={id('match')}
          value={value.match}
          onChange={(e) => set({ match: e.target.value as Condition['match'] })}
        >
          {MATCH_MODES.map((m) => (
            <option key={m} value={m}>
              {matchLabels[m]}
            </option>
          ))}
        </Select>
      </Field>
      <FormulaField
        kind="expression"
        label="Comparison expression"
        hint="A formula expression that must also hold, e.g. age >= 18"
        value={value.expression}
        error={errors.expression}
        onChange={(expression) => set({ expression })}
      />
      <Field
        id={id('ignore')}
        label="Strings to ignore"
        hint="Removed from the message before matching"
        error={errors.ignore}
      >
        <Input id={id('ignore')} value={value.ignore} onChange={(e) => set({ ignore: e.target.value })} />
      </Field>
    </div>
  );
}
