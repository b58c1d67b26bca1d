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

/** The autosave indicator; a failed save offers a retry. */
export function SaveStateIndicator({ state, onRetry }: { state: SaveState; onRetry(): void }) {
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
          'inline-flex items-center gap-1 whitespace-nowrap rounded px-1.5 py-0.5 text-xs',
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
