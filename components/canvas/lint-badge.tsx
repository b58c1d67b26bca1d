'use client';

import { AlertTriangle, Info } from 'lucide-react';
import { createContext, use, useSyncExternalStore } from 'react';
import { cn } from '@/components/ui/cn';
import type { LintProblem, LintTarget } from '@/lib/schema/lint';

/**
 * The lint problems of the bot, for the badges on blocks and arrows. An external store rather
 * than node data or a context value: a new lint result then re-renders only the nodes whose
 * badge changed (each reads a string summary), never the whole canvas.
 */
export interface LintStore {
  set(problems: readonly LintProblem[]): void;
  subscribe(listener: () => void): () => void;
  /** `count|severity|first message` of a block or arrow, or '' when it has none. */
  summary(target: LintTarget): string;
}

const keyOf = (target: LintTarget) => (target.type === 'bot' ? 'bot' : `${target.type}:${target.id}`);

export function createLintStore(): LintStore {
  let summaries = new Map<string, string>();
  const listeners = new Set<() => void>();
  return {
    set(problems) {
      const grouped = new Map<string, LintProblem[]>();
      for (const p of problems) {
        const key = keyOf(p.target);
        grouped.set(key, [...(grouped.get(key) ?? []), p]);
      }
      // Problems come worst first, so the first is the one to show.
      summaries = new Map(
        [...grouped].map(([key, list]) => [key, `${list.length}|${list[0].severity}|${list[0].message}`]),
      );
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    summary: (target) => summaries.get(keyOf(target)) ?? '',
  };
}

export const LintStoreContext = createContext<LintStore | null>(null);

const noSubscribe = () => () => {};

/** A small badge with the count of a block's or arrow's problems; the first one on hover. */
export function LintBadge({ target, className }: { target: LintTarget; className?: string }) {
  const store = use(LintStoreContext);
  const summary = useSyncExternalStore(
    store?.subscribe ?? noSubscribe,
    () => store?.summary(target) ?? '',
    () => '',
  );
  if (!summary) return null;
  const [count, severity, ...rest] = summary.split('|');
  const first = rest.join('|');
  const n = Number(count);
  const title = n > 1 ? `${first} (and ${n - 1} more in Problems)` : first;
  const Icon = severity === 'info' ? Info : AlertTriangle;
  return (
    <span
      role="img"
      aria-label={`${n} ${n === 1 ? 'problem' : 'problems'}: ${first}`}
      title={title}
      className={cn(
        'inline-flex shrink-0 items-center gap-0.5 rounded px-1 py-px text-[10px] font-semibold normal-case tracking-normal',
        severity === 'error' && 'bg-red-600 text-white',
        severity === 'warning' && 'bg-amber-400 text-amber-950',
        severity === 'info' && 'bg-sky-100 text-sky-800',
        className,
      )}
    >
      <Icon className="size-3" aria-hidden />
      {n}
    </span>
  );
}
