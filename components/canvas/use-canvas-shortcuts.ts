'use client';

import { useEffect, useRef } from 'react';
import type { EditorActions } from './use-bot-schema-editor';

/** Keys typed into a field belong to the field (its own undo, copy and paste). */
export function isEditableTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Keys pressed in a dialog (the import choice, the shortcuts list) belong to the dialog. */
const inDialog = (target: EventTarget | null) =>
  target instanceof Element && target.closest('dialog[open]') !== null;

/** Text the designer selected on the page (e.g. in the simulator) copies as text, not as blocks. */
const hasTextSelection = () => Boolean(window.getSelection()?.toString());

/** The last blocks copied, for browsers that refuse to read the system clipboard. */
let memoryClipboard: string | null = null;

/**
 * The canvas's keyboard shortcuts: Delete/Backspace, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y, Ctrl+C /
 * Ctrl+V through the system clipboard (the copy and paste events, with the async Clipboard API
 * as a fallback), Ctrl+D, Ctrl+A. Ignored while typing in a field.
 */
export function useCanvasShortcuts(actions: EditorActions, enabled = true) {
  const latest = useRef(actions);
  latest.current = actions;

  useEffect(() => {
    // A read-only canvas (an operator's) takes no editing keys.
    if (!enabled) return;
    let lastPasteEvent = 0;

    function writeClipboard(text: string) {
      memoryClipboard = text;
      navigator.clipboard?.writeText(text).catch(() => undefined);
    }

    function onKeyDown(event: KeyboardEvent) {
      if (isEditableTarget(event.target) || inDialog(event.target) || event.defaultPrevented) return;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      const a = latest.current;
      if (mod && key === 'z' && !event.shiftKey) {
        event.preventDefault();
        a.undo();
      } else if (mod && ((key === 'z' && event.shiftKey) || key === 'y')) {
        event.preventDefault();
        a.redo();
      } else if (mod && key === 'd') {
        event.preventDefault();
        a.duplicate();
      } else if (mod && key === 'a') {
        event.preventDefault();
        a.selectAll();
      } else if (mod && key === 'c' && !hasTextSelection()) {
        const text = a.copySelection();
        if (text) writeClipboard(text);
      } else if (mod && key === 'v') {
        // The paste event normally follows; when the browser sends none, read the clipboard.
        const pressedAt = Date.now();
        setTimeout(async () => {
          if (lastPasteEvent >= pressedAt) return;
          const text = await navigator.clipboard?.readText().catch(() => null);
          if (!(text && latest.current.paste(text)) && memoryClipboard) latest.current.paste(memoryClipboard);
        }, 80);
      } else if (!mod && (key === 'delete' || key === 'backspace')) {
        event.preventDefault();
        a.deleteSelection();
      } else if (key === 'escape') {
        a.select([]);
      }
    }

    function onCopy(event: ClipboardEvent) {
      if (isEditableTarget(event.target) || hasTextSelection()) return;
      const text = latest.current.copySelection();
      if (!text || !event.clipboardData) return;
      memoryClipboard = text;
      event.clipboardData.setData('text/plain', text);
      event.preventDefault();
    }

    function onPaste(event: ClipboardEvent) {
      if (isEditableTarget(event.target)) return;
      lastPasteEvent = Date.now();
      const text = event.clipboardData?.getData('text/plain') ?? '';
      if (latest.current.paste(text)) event.preventDefault();
      else if (memoryClipboard && !text) latest.current.paste(memoryClipboard);
    }

    window.addEventListener('keydown', onKeyDown);
    document.addEventListener('copy', onCopy);
    document.addEventListener('paste', onPaste);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('copy', onCopy);
      document.removeEventListener('paste', onPaste);
    };
  }, [enabled]);
}

/** Toolbar buttons: the same copy and paste, through the async Clipboard API. */
export async function copyToClipboard(text: string) {
  memoryClipboard = text;
  await navigator.clipboard?.writeText(text).catch(() => undefined);
}

export async function readClipboard(): Promise<string | null> {
  const text = await navigator.clipboard?.readText().catch(() => null);
  return text || memoryClipboard;
}
