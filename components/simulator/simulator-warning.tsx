import { TriangleAlert } from 'lucide-react';

/**
 * A warning in the simulator's chat (lib/simulator/warnings): why something came out empty or
 * did not happen, and how to fix it. Muted and set apart from the bubbles: the client never
 * sees it.
 */
export function SimulatorWarning({ text, fix }: { text: string; fix: string }) {
  return (
    <div
      role="note"
      aria-label="Simulator warning"
      className="flex w-full gap-2 rounded-md border border-dashed border-amber-300 bg-amber-50/60 px-2 py-1.5 text-xs text-amber-900"
    >
      <TriangleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0 text-amber-600" />
      <div className="min-w-0 break-words">
        <p>{text}</p>
        <p className="text-amber-800/80">{fix}</p>
      </div>
    </div>
  );
}
