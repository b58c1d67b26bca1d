import type { BlockKind } from '@/lib/schema';

/** bot-semantics §1: each kind's colour on the canvas (and on the minimap). */
export const blockKindStyle: Record<BlockKind, { label: string; className: string; minimap: string }> = {
  start: {
    label: 'Start',
    className: 'bg-emerald-400 border-emerald-600 text-emerald-950',
    minimap: '#34d399',
  },
  state: { label: 'State', className: 'bg-white border-slate-300 text-slate-900', minimap: '#cbd5e1' },
  not_state: {
    label: 'Not a state',
    className: 'bg-slate-200 border-slate-400 text-slate-900',
    minimap: '#94a3b8',
  },
  not_state_condition: {
    label: 'Quick reply',
    className: 'bg-slate-500 border-slate-700 text-white',
    minimap: '#475569',
  },
  close_deal: {
    label: 'Close deal',
    className: 'bg-red-400 border-red-600 text-red-950',
    minimap: '#f87171',
  },
  data_transfer: {
    label: 'Data transfer',
    className: 'bg-yellow-300 border-yellow-500 text-yellow-950',
    minimap: '#fde047',
  },
  comment: {
    label: 'Note',
    className: 'bg-amber-50 border-amber-200 text-amber-900 italic',
    minimap: '#fef3c7',
  },
};
