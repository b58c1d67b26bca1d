'use client';

import { AlertTriangle, CircleCheck, Info, X } from 'lucide-react';
import { memo, useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { describeLintTarget, type LintProblem, type LintTarget } from '@/lib/schema/lint';

const icons = { error: AlertTriangle, warning: AlertTriangle, info: Info } as const;
const iconColours = { error: 'text-red-600', warning: 'text-amber-500', info: 'text-sky-600' } as const;

/**
 * The toolbar's "Problems" button with the count, and the list it opens: every lint problem of
 * the bot, worst first; a click on one selects its block or arrow and pans to it.
 */
export const ProblemsPanel = memo(function ProblemsPanel({
  problems,
  onJump,
}: {
  problems: readonly LintProblem[];
  onJump(target: LintTarget): void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const worst = problems[0]?.severity;

  // Closes on a click elsewhere or Escape, like a menu.
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div ref={root} className="relative">
      <Button
        variant="secondary"
        size="sm"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        title="What will not run as you expect: arrows that never fire, blocks nothing leads to, variables nothing sets"
      >
        {worst ? (
          <AlertTriangle className={cn('size-3.5', iconColours[worst])} aria-hidden />
        ) : (
          <CircleCheck className="size-3.5 text-emerald-600" aria-hidden />
        )}
        Problems ({problems.length})
      </Button>
      {open ? (
        <section
          id={panelId}
          aria-label="Problems"
          className="absolute top-full right-0 z-30 mt-2 flex max-h-[60vh] w-[30rem] max-w-[85vw] flex-col rounded-lg border border-slate-200 bg-white shadow-lg"
        >
          <header className="flex items-center justify-between border-b border-slate-100 px-3 py-2">
            <h2 className="text-sm font-semibold text-slate-800">Problems</h2>
            <button type="button" aria-label="Close problems" onClick={() => setOpen(false)}>
              <X className="size-4 text-slate-500" aria-hidden />
            </button>
          </header>
          {problems.length ? (
            <ul className="min-h-0 overflow-y-auto py-1">
              {problems.map((p, i) => {
                const Icon = icons[p.severity];
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list recomputed from the schema
                  <li key={i}>
                    <button
                      type="button"
                      disabled={p.target.type === 'bot'}
                      onClick={() => {
                        onJump(p.target);
                        setOpen(false);
                      }}
                      className="flex w-full items-start gap-2 px-3 py-1.5 text-left text-xs hover:bg-slate-50 disabled:hover:bg-transparent"
                    >
                      <Icon className={cn('mt-0.5 size-3.5 shrink-0', iconColours[p.severity])} aria-hidden />
                      <span className="min-w-0 flex-1">
                        <span className="font-medium text-slate-800">
                          {p.target.type === 'bot' ? 'Bot' : capitalise(describeLintTarget(p.target))}
                        </span>
                        <span className="text-slate-600"> — {p.message}</span>
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p className="px-3 py-4 text-sm text-slate-600">
              No problems found: every arrow can fire and every block can be reached.
            </p>
          )}
        </section>
      ) : null}
    </div>
  );
});

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
