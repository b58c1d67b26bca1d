'use client';

import { ArrowDown, ArrowUp } from 'lucide-react';
import { IconButton } from '@/components/ui/icon-button';
import type { TestStep } from '@/lib/conversation-tests/test-case';
import { ExpectationEditor } from './expectation-editor';
import { RemoveButton } from './form-parts';
import { StepActionEditor } from './step-action-editor';

/** One step of a test: what happens, whether it goes to the network (live), what the bot must do. */
export function StepEditor({
  n,
  step,
  count,
  onChange,
  onMove,
  onRemove,
}: {
  /** Its number from 1. */
  n: number;
  step: TestStep;
  /** How many steps the test has (the last can not move down). */
  count: number;
  onChange(step: TestStep): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}) {
  return (
    <li className="space-y-2 rounded-md border border-slate-200 p-2" data-testid={`step-${n}`}>
      <header className="flex items-center gap-1">
        <h4 className="flex-1 text-xs font-semibold text-slate-700">Step {n}</h4>
        <IconButton label={`Move step ${n} up`} disabled={n === 1} onClick={() => onMove(-1)}>
          <ArrowUp className="size-3.5" aria-hidden />
        </IconButton>
        <IconButton label={`Move step ${n} down`} disabled={n === count} onClick={() => onMove(1)}>
          <ArrowDown className="size-3.5" aria-hidden />
        </IconButton>
        {count > 1 ? <RemoveButton label={`Remove step ${n}`} onClick={onRemove} /> : null}
      </header>
      <StepActionEditor step={n} action={step.action} onChange={(action) => onChange({ ...step, action })} />
      <label
        className="flex items-center gap-1.5 text-xs text-slate-700"
        title="This step's requests and AI calls go to the network instead of the stubs"
      >
        <input
          type="checkbox"
          checked={!!step.live}
          onChange={(e) => onChange({ ...step, live: e.target.checked || undefined })}
        />
        Live: real requests and AI calls in this step
      </label>
      <div className="border-t border-slate-100 pt-2">
        <p className="mb-1 text-xs font-medium text-slate-600">The bot must</p>
        <ExpectationEditor
          step={n}
          expect={step.expect}
          onChange={(expect) => onChange({ ...step, expect })}
        />
      </div>
    </li>
  );
}
