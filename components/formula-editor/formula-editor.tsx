'use client';

import dynamic from 'next/dynamic';
import { useCallback, useState } from 'react';
import { Textarea } from '@/components/ui/input';
import type { KnownVariable, Plan, SourceKind } from '@/lib/formula';

// Monaco touches `window` when imported: load it in the browser only.
const MonacoFormulaEditor = dynamic(() => import('./monaco-formula-editor'), { ssr: false });

export interface FormulaEditorProps {
  /** The id the field's label points at (the text fallback, then Monaco's text area). */
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  /** A formula (lines of statements) or one comparison expression. */
  kind?: SourceKind;
  /** The variables to complete, asked for when a completion list opens. */
  variables?: () => readonly KnownVariable[];
  /** The project's plan: calls it does not allow are marked where they are written. */
  plan?: Plan;
  invalid?: boolean;
  /** The field's error, for screen readers. */
  describedBy?: string;
  placeholder?: string;
}

const noVariables = () => [];

/**
 * The formula editor: Monaco with the formula language (highlighting, completion, signature help,
 * hover, error markers). Until Monaco has loaded, a plain labelled text area edits the same value,
 * so the field works at once and without scripts' heavy part.
 */
export function FormulaEditor({
  id,
  label,
  value,
  onChange,
  kind = 'formula',
  variables = noVariables,
  plan,
  invalid = false,
  describedBy,
  placeholder,
}: FormulaEditorProps) {
  const [ready, setReady] = useState(false);
  const onReady = useCallback(
    (focus: () => void) => {
      // Typing continues in Monaco when it replaces the text area under the cursor.
      if (document.activeElement?.id === id) focus();
      setReady(true);
    },
    [id],
  );
  return (
    <div className="relative">
      {ready ? null : (
        <Textarea
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          spellCheck={false}
          rows={kind === 'formula' ? Math.min(12, Math.max(3, value.split('\n').length + 1)) : 1}
          placeholder={placeholder}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className="font-mono text-xs"
        />
      )}
      <div className={ready ? undefined : 'pointer-events-none absolute inset-0 opacity-0'}>
        <MonacoFormulaEditor
          id={id}
          value={value}
          onChange={onChange}
          label={label}
          kind={kind}
          variables={variables}
          plan={plan}
          invalid={invalid}
          describedBy={describedBy}
          replacing={ready}
          onReady={onReady}
        />
      </div>
    </div>
  );
}
