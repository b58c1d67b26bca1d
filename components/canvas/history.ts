/**
 * Undo/redo as a history of immutable snapshots (the bot schema after each change). Pure, so
 * the editor hook keeps it in a ref and tests can drive it directly.
 */
export interface History<T> {
  past: readonly T[];
  present: T;
  future: readonly T[];
  /** What the last change edited (e.g. `block:3:text`) and when: consecutive typing coalesces. */
  lastKey: string | null;
  lastAt: number;
}

export interface PushOptions {
  /** Changes with the same key within `coalesceMs` replace the present instead of adding a step. */
  key?: string | null;
  now?: number;
  coalesceMs?: number;
  /** Oldest steps are dropped beyond this many. */
  limit?: number;
}

export const HISTORY_LIMIT = 200;
export const COALESCE_MS = 1000;

export function createHistory<T>(present: T): History<T> {
  return { past: [], present, future: [], lastKey: null, lastAt: 0 };
}

export function pushHistory<T>(history: History<T>, next: T, options: PushOptions = {}): History<T> {
  if (next === history.present) return history;
  const { key = null, now = Date.now(), coalesceMs = COALESCE_MS, limit = HISTORY_LIMIT } = options;
  const coalesce =
    key !== null && key === history.lastKey && now - history.lastAt <= coalesceMs && history.past.length > 0;
  const past = coalesce ? history.past : [...history.past, history.present];
  return {
    past: past.length > limit ? past.slice(past.length - limit) : past,
    present: next,
    future: [],
    lastKey: key,
    lastAt: now,
  };
}

export function undoHistory<T>(history: History<T>): History<T> {
  if (!history.past.length) return history;
  return {
    past: history.past.slice(0, -1),
    present: history.past[history.past.length - 1],
    future: [history.present, ...history.future],
    lastKey: null,
    lastAt: 0,
  };
}

export function redoHistory<T>(history: History<T>): History<T> {
  if (!history.future.length) return history;
  return {
    past: [...history.past, history.present],
    present: history.future[0],
    future: history.future.slice(1),
    lastKey: null,
    lastAt: 0,
  };
}

export const canUndo = (history: History<unknown>) => history.past.length > 0;
export const canRedo = (history: History<unknown>) => history.future.length > 0;

/**
 * Every step with others' changes applied (a colleague's edit): Undo then takes back one's own
 * last step and keeps theirs. The coalescing key stays, so typing on goes on in the same step.
 * `apply` is told which step is the present (it may hold edits not sent yet).
 */
export function rebaseHistory<T>(history: History<T>, apply: (step: T, present: boolean) => T): History<T> {
  const step = (value: T) => apply(value, false);
  return {
    ...history,
    past: history.past.map(step),
    present: apply(history.present, true),
    future: history.future.map(step),
  };
}
