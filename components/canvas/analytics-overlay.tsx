'use client';

import { createContext, use, useSyncExternalStore } from 'react';
import { cn } from '@/components/ui/cn';
import { dropOff } from '@/lib/analytics/funnel';
import type { FlowAnalytics } from '@/lib/analytics/query';
import { countFormat } from '@/lib/number-format';

/**
 * The analytics overlay's figures (docs/analytics.md), for the blocks and arrows on the canvas.
 * An external store, as the lint badges' (lint-badge.tsx): a new range re-renders only the nodes
 * whose figures changed, each reading a short string.
 */
export interface AnalyticsStore {
  set(analytics: FlowAnalytics | null): void;
  subscribe(listener: () => void): () => void;
  /** `entries|clients|stopped|clients of every version` of a block, '0|0|0|0' for one nobody entered, '' with the overlay off. */
  block(id: number): string;
  /** An arrow's passes, '' with the overlay off. */
  arrow(id: number): string;
}

export function createAnalyticsStore(): AnalyticsStore {
  let shown: FlowAnalytics | null = null;
  let blocks = new Map<number, string>();
  let arrows = new Map<number, string>();
  const listeners = new Set<() => void>();
  return {
    set(analytics) {
      shown = analytics;
      blocks = new Map(
        analytics?.blocks.map((b) => [
          b.blockId,
          `${b.entries}|${b.clients}|${b.stopped}|${b.allVersions.clients}`,
        ]),
      );
      arrows = new Map(analytics?.arrows.map((a) => [a.arrowId, String(a.passes)]));
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    block: (id) => (shown ? (blocks.get(id) ?? '0|0|0|0') : ''),
    arrow: (id) => (shown ? (arrows.get(id) ?? '0') : ''),
  };
}

export const AnalyticsStoreContext = createContext<AnalyticsStore | null>(null);

const noSubscribe = () => () => {};

function useFigures(read: (store: AnalyticsStore) => string): string {
  const store = use(AnalyticsStoreContext);
  return useSyncExternalStore(
    store?.subscribe ?? noSubscribe,
    () => (store ? read(store) : ''),
    () => '',
  );
}

const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 0 });

/** The drop-off's colour: green while few stop here, amber, then red where most do (grey: nobody came). */
const tone = (share: number) =>
  share >= 0.5
    ? 'border-red-300 bg-red-50 text-red-900'
    : share >= 0.2
      ? 'border-amber-300 bg-amber-50 text-amber-900'
      : 'border-emerald-300 bg-emerald-50 text-emerald-900';

/**
 * A block's figures, below it: the version's unique clients and how many stopped there, and
 * (smaller) its clients over every version.
 */
export function BlockFigures({ blockId, far }: { blockId: number; far?: boolean }) {
  const figures = useFigures((s) => s.block(blockId));
  if (!figures) return null;
  const [entries, clients, stopped, allClients] = figures.split('|').map(Number);
  const share = dropOff({ clients, stopped });
  return (
    <div
      data-testid={`figures-${blockId}`}
      title={`${countFormat.format(entries)} entries by ${countFormat.format(clients)} clients; ${countFormat.format(stopped)} stopped here (${percent.format(share)} of them). ${countFormat.format(allClients)} clients in every version.`}
      className={cn(
        'mt-1.5 flex flex-wrap items-center justify-between gap-x-2 rounded border px-1.5 py-0.5 font-medium tabular-nums',
        far ? 'text-base' : 'text-[10px]',
        clients ? tone(share) : 'border-slate-200 bg-white/70 text-slate-500',
      )}
    >
      <span>
        {countFormat.format(clients)} {clients === 1 ? 'client' : 'clients'}
      </span>
      <span>
        {countFormat.format(stopped)} stopped · {percent.format(share)}
      </span>
      <span className="basis-full font-normal opacity-75" data-testid={`all-versions-${blockId}`}>
        All versions: {countFormat.format(allClients)} {allClients === 1 ? 'client' : 'clients'}
      </span>
    </div>
  );
}

/** How many clients followed an arrow, on its label. */
export function ArrowFigures({ arrowId }: { arrowId: number }) {
  const passes = useFigures((s) => s.arrow(arrowId));
  if (!passes) return null;
  return (
    <span
      data-testid={`arrow-figures-${arrowId}`}
      title={`Followed ${countFormat.format(Number(passes))} times`}
      className={cn(
        'shrink-0 rounded px-1 font-semibold tabular-nums',
        passes === '0' ? 'bg-slate-100 text-slate-500' : 'bg-brand-600 text-white',
      )}
    >
      {countFormat.format(Number(passes))}
    </span>
  );
}
