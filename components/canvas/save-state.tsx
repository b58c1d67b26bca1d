'use client';

import { AlertTriangle, Check, CircleDashed, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import type { SaveState } from './use-autosave';

const labels = {
  saved: 'Saved',
  dirty: 'Unsaved changes',
  saving: 'Saving…',
  error: 'Not saved: error',
  invalid: 'Not saved: invalid',
  conflict: 'Not saved: conflict',
} as const;

/** `Not saved: 1 field has an error`: an edit the block or arrow editor holds back. */
export function heldBackLabel(fields: number): string {
  return fields === 1 ? 'Not saved: 1 field has an error' : `Not saved: ${fields} fields have errors`;
}

/**
 * The autosave indicator; a failed save offers a retry. An edit held back in the block or arrow
 * editor (a field with an error) is not saved either, whatever autosave says: it shows first,
 * with a button that goes to the field.
 */
export function SaveStateIndicator({
  state,
  onRetry,
  heldBack = 0,
  onShowHeldBack,
}: {
  state: SaveState;
  onRetry(): void;
  /** Fields whose edit is held back by the editors. */
  heldBack?: number;
  onShowHeldBack?(): void;
}) {
  if (heldBack > 0)
    return (
      <div className="flex items-center gap-1.5">
        <span
          role="status"
          aria-live="polite"
          data-testid="save-state"
          data-status="held-back"
          title="Fix the field in the editor: until then this change is not in the bot and not saved."
          className="inline-flex items-center gap-1 whitespace-nowrap rounded bg-red-50 px-1.5 py-0.5 text-xs text-red-700"
        >
          <AlertTriangle className="size-3.5" aria-hidden />
          {heldBackLabel(heldBack)}
        </span>
        {onShowHeldBack ? (
          <Button size="sm" variant="ghost" onClick={onShowHeldBack}>
            Show field
          </Button>
        ) : null}
      </div>
    );
  const failed = state.status === 'error' || state.status === 'invalid' || state.status === 'conflict';
  return (
    <div className="flex items-center gap-1.5">
      <span
        role="status"
        aria-live="polite"
        data-testid="save-state"
        data-status={state.status}
        title={state.message}
        className={cn(
          // As wide as "Unsaved changes" whatever it says: an edit's passing states never re-wrap
          // the toolbar, which moved the whole canvas 34 px under the mouse and back.
          'inline-flex min-w-[8.5rem] items-center gap-1 whitespace-nowrap rounded px-1.5 py-0.5 text-xs',
          state.status === 'saved' && 'text-emerald-700',
          (state.status === 'dirty' || state.status === 'saving') && 'text-slate-600',
          failed && 'bg-red-50 text-red-700',
        )}
      >
        {state.status === 'saved' ? <Check className="size-3.5" aria-hidden /> : null}
        {state.status === 'dirty' ? <CircleDashed className="size-3.5" aria-hidden /> : null}
        {state.status === 'saving' ? <Loader2 className="size-3.5 animate-spin" aria-hidden /> : null}
        {failed ? <AlertTriangle className="size-3.5" aria-hidden /> : null}
        {labels[state.status]}
      </span>
      {state.status === 'error' ? (
        <Button size="sm" variant="ghost" onClick={onRetry}>
          Retry
        </Button>
      ) : null}
    </div>
  );
}
