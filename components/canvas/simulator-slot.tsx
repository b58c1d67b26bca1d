'use client';

import { FlaskConical, MessageSquare, PanelRightClose } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { panelWidthStyle, ResizeHandle } from './side-panel';

/** The panels of the slot: the simulator's chat, and the conversation tests. */
export type SlotPanel = 'chat' | 'tests';

/**
 * SLOT: the simulator panel (components/simulator) and the Tests panel (components/tests) on the
 * right of the canvas, one at a time behind a collapsible rail, resized by the handle on their
 * left edge (`width`, one for both; a phone lays them over the canvas at their own width). Both
 * stay mounted while the other shows, so a test half written survives a look at the chat. The
 * canvas page opens the simulator by default, because the simulator's browser test talks to the
 * bot right after sign-up; pass `open={false}` to start collapsed.
 */
export function SimulatorSlot({
  open,
  panel,
  onShow,
  width,
  onResize,
  chat,
  tests,
}: {
  open: boolean;
  panel: SlotPanel;
  /** Shows a panel, or (null) collapses the slot. */
  onShow(panel: SlotPanel | null): void;
  width: number;
  onResize(width: number): void;
  chat: ReactNode;
  tests: ReactNode;
}) {
  return (
    // On a phone the open simulator lies over the canvas: beside it, it squeezed the canvas to
    // nothing and the toolbar and palette spilled over the chat.
    <div
      className={cn(
        'flex h-full shrink-0',
        open && 'max-md:absolute max-md:inset-y-0 max-md:right-0 max-md:z-30 max-md:shadow-lg',
      )}
    >
      <div className="flex w-9 shrink-0 flex-col items-center gap-2 border-l border-slate-200 bg-white py-2">
        <RailButton
          shown={open && panel === 'chat'}
          label="Simulator"
          icon={<MessageSquare className="size-4" aria-hidden />}
          onClick={() => onShow(open && panel === 'chat' ? null : 'chat')}
        />
        <RailButton
          shown={open && panel === 'tests'}
          label="Tests"
          icon={<FlaskConical className="size-4" aria-hidden />}
          onClick={() => onShow(open && panel === 'tests' ? null : 'tests')}
        />
      </div>
      {open ? (
        <div className="relative flex h-full">
          <ResizeHandle
            label={panel === 'chat' ? 'Resize the simulator' : 'Resize the tests'}
            name="testChat"
            width={width}
            onResize={onResize}
          />
          <div
            style={panelWidthStyle(width)}
            className="flex h-full md:w-[var(--panel-width)] md:*:w-full md:*:*:w-full md:*:*:max-w-none"
          >
            <div className={cn('h-full', panel !== 'chat' && 'hidden')}>{chat}</div>
            <div className={cn('h-full', panel !== 'tests' && 'hidden')}>{tests}</div>
          </div>
        </div>
      ) : null}
    </div>
  );
}

function RailButton({
  shown,
  label,
  icon,
  onClick,
}: {
  shown: boolean;
  /** On the rail; in lower case, the accessible name's noun ("Hide simulator", "Show tests"). */
  label: string;
  icon: ReactNode;
  onClick(): void;
}) {
  const name = label.toLowerCase();
  return (
    <button
      type="button"
      aria-label={shown ? `Hide ${name}` : `Show ${name}`}
      aria-expanded={shown}
      title={shown ? `Hide the ${name}` : `Show the ${name}`}
      onClick={onClick}
      className={cn(
        'flex flex-col items-center gap-2 rounded p-1.5 text-slate-600 hover:bg-slate-100',
        shown && 'bg-slate-100 text-slate-900',
      )}
    >
      {shown ? <PanelRightClose className="size-4" aria-hidden /> : icon}
      <span className="text-xs [writing-mode:vertical-rl]">{label}</span>
    </button>
  );
}
