'use client';

import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { useModal } from '@/components/ui/use-modal';
import { isEditableTarget } from './use-canvas-shortcuts';

/** What use-canvas-shortcuts and React Flow do with keys and the mouse, as the overlay lists it. */
const SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: 'Ctrl/⌘ Z', does: 'Undo' },
  { keys: 'Ctrl/⌘ Shift Z, Ctrl/⌘ Y', does: 'Redo' },
  { keys: 'Ctrl/⌘ C, Ctrl/⌘ V', does: 'Copy and paste the selected blocks with the arrows between them' },
  { keys: 'Ctrl/⌘ D', does: 'Duplicate the selection' },
  { keys: 'Ctrl/⌘ A', does: 'Select everything' },
  { keys: 'Delete, Backspace', does: 'Delete the selection' },
  { keys: 'Escape', does: 'Clear the selection' },
  { keys: 'Ctrl/⌘ click', does: 'Add a block or arrow to the selection' },
  { keys: 'Shift drag', does: 'Select the blocks in a box' },
  { keys: 'Drag the pane, wheel', does: 'Move around, zoom' },
  { keys: '?', does: 'Show this list' },
];

/** `?` (not while typing in a field) asks for the shortcuts overlay. */
export function useShortcutsKey(onPress: () => void) {
  const latest = useRef(onPress);
  latest.current = onPress;
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || isEditableTarget(event.target)) return;
      event.preventDefault();
      latest.current();
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

/** The keyboard shortcuts overlay (modal); Escape or Close shuts it. */
export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  const { dialog, titleId } = useModal();
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className="m-auto w-[34rem] max-w-[90vw] rounded-lg border border-slate-200 bg-white p-5 shadow-xl backdrop:bg-slate-900/30"
    >
      <h2 id={titleId} className="text-base font-semibold text-slate-900">
        Keyboard shortcuts
      </h2>
      <p className="mt-1 text-sm text-slate-500">
        On the canvas; a field you are typing in keeps its own keys.
      </p>
      <table className="mt-3 w-full text-sm">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys} className="border-t border-slate-100">
              <th scope="row" className="py-1.5 pr-4 text-left font-normal whitespace-nowrap">
                <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-800">
                  {s.keys}
                </kbd>
              </th>
              <td className="py-1.5 text-slate-700">{s.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mt-4 flex justify-end">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </dialog>
  );
}
