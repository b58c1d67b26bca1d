const TONES: Record<string, string> = {
  draft: 'bg-slate-100 text-slate-700',
  scheduled: 'bg-sky-100 text-sky-800',
  pending: 'bg-slate-100 text-slate-700',
  running: 'bg-amber-100 text-amber-800',
  paused: 'bg-orange-100 text-orange-800',
  done: 'bg-emerald-100 text-emerald-800',
  sent: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
  cancelled: 'bg-red-100 text-red-800',
};

export function BroadcastStatus({ status }: { status: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${TONES[status] ?? TONES.pending}`}
    >
      {status}
    </span>
  );
}

export const dateTime = (d: Date | string | null | undefined) => (d ? new Date(d).toLocaleString() : '—');

export function duration(seconds: number | null) {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
