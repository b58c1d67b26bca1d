'use client';

import { useId } from 'react';
import { FormulaEditor } from '@/components/formula-editor/formula-editor';
import { useKnownVariables } from '@/components/formula-editor/use-known-variables';
import { useProjectId } from '@/components/projects/use-project-id';
import { useProjectPlan } from '@/components/projects/use-project-plan';
import { Field } from '@/components/ui/field';
import type { SourceKind } from '@/lib/formula';

export interface FormulaFieldProps {
  value: string;
  onChange(value: string): void;
  label: string;
  /** The first error (from validate.ts); the editor marks every error in the text as well. */
  error?: string | null;
  hint?: string;
  /** A block's formula, or a condition's comparison expression. */
  kind?: SourceKind;
  placeholder?: string;
}

/** A formula or comparison expression in the formula editor, completing the bot's variables. */
export function FormulaField({
  value,
  onChange,
  label,
  error,
  hint,
  kind = 'formula',
  placeholder,
}: FormulaFieldProps) {
  const id = useId();
  const variables = useKnownVariables();
  const plan = useProjectPlan(useProjectId());
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <FormulaEditor
        id={id}
        label={label}
        value={value}
        onChange={onChange}
        kind={kind}
        variables={variables}
        plan={plan}
        invalid={Boolean(error)}
        describedBy={error ? `${id}-error` : undefined}
        placeholder={placeholder ?? (kind === 'formula' ? 'price = round(base * 1.2, 2)' : 'age >= 18')}
      />
    </Field>
  );
}
