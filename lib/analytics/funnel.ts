import type { FlowAnalytics } from './query';

/** A step of a funnel: clients who entered a block, whose deal reached a CRM stage, or who submitted in a block. */
export interface FunnelStep {
  kind: 'block' | 'stage' | 'submission';
  id: number;
}

export interface FunnelRow {
  step: FunnelStep;
  clients: number;
  /** Share of the step before's clients, 0–1; null for the first step or after a step of none. */
  ofPrevious: number | null;
  ofFirst: number | null;
}

const clientsAt = (a: FlowAnalytics, step: FunnelStep): number => {
  if (step.kind === 'block') return a.blocks.find((b) => b.blockId === step.id)?.clients ?? 0;
  if (step.kind === 'stage') return a.stages.find((s) => s.stageId === step.id)?.clients ?? 0;
  return a.submissions.find((s) => s.blockId === step.id)?.clients ?? 0;
};

/**
 * The funnel between the steps a designer picked, from the range's unique clients of each
 * (docs/analytics.md): each step's clients are those who reached it in the range, so a share can
 * pass 100 % when clients reach a later step another way.
 */
export function funnelRows(a: FlowAnalytics, steps: readonly FunnelStep[]): FunnelRow[] {
  const counts = steps.map((step) => clientsAt(a, step));
  return steps.map((step, i) => ({
    step,
    clients: counts[i],
    ofPrevious: i > 0 && counts[i - 1] > 0 ? counts[i] / counts[i - 1] : null,
    ofFirst: i > 0 && counts[0] > 0 ? counts[i] / counts[0] : null,
  }));
}

/** The share of a block's clients who stopped there, 0–1: the overlay's colour. */
export const dropOff = (figures: { clients: number; stopped: number }): number =>
  figures.clients > 0 ? Math.min(1, figures.stopped / figures.clients) : 0;
