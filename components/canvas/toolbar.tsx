'use client';

import {
  BookOpen,
  ClipboardPaste,
  Copy,
  CopyPlus,
  Keyboard,
  type LucideIcon,
  Maximize,
  Network,
  Redo2,
  Trash2,
  Undo2,
} from 'lucide-react';
import { memo, type ReactNode, useState } from 'react';
import { ShortcutsDialog, useShortcutsKey } from './shortcuts-help';

const toolLook =
  'inline-flex items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:text-slate-300 disabled:hover:bg-transparent';
const toolClass = `${toolLook} size-8`;

function ToolButton({
  label,
  shortcut,
  icon: Icon,
  onClick,
  disabled,
  text,
  title = label,
}: {
  label: string;
  shortcut?: string;
  icon: LucideIcon;
  onClick(): void;
  disabled?: boolean;
  /** Shown beside the icon where the toolbar has room (its label is the icon's name). */
  text?: string;
  title?: string;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={shortcut ? `${title} (${shortcut})` : title}
      onClick={onClick}
      disabled={disabled}
      className={text ? `${toolLook} h-8 gap-1.5 px-2 text-sm` : toolClass}
    >
      <Icon className="size-4" aria-hidden />
      {text ? <span className="max-lg:sr-only">{text}</span> : null}
    </button>
  );
}

const Divider = () => <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden />;

export interface CanvasToolbarProps {
  canUndo: boolean;
  canRedo: boolean;
  hasSelection: boolean;
  onUndo(): void;
  onRedo(): void;
  onCopy(): void;
  onPaste(): void;
  onDuplicate(): void;
  onDelete(): void;
  onFitView(): void;
  /** Lays the bot out left to right (disabled with no blocks). */
  onArrange(): void;
  canArrange: boolean;
  /** An operator's view: no editing tools. */
  readOnly?: boolean;
  /** Search, import/export and the save state, on the right. */
  children?: ReactNode;
}

/**
 * The canvas's toolbar: undo/redo, clipboard, delete, zoom to fit, each with its shortcut in the
 * tooltip; then help: the shortcuts overlay and the builder guide (docs/builder.md in the app).
 */
export const CanvasToolbar = memo(function CanvasToolbar(props: CanvasToolbarProps) {
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  useShortcutsKey(() => setShortcutsOpen(true));
  return (
    <div
      role="toolbar"
      aria-label="Canvas"
      className="relative z-20 flex flex-wrap items-center gap-0.5 border-b border-slate-200 bg-white px-2 py-1"
    >
      {props.readOnly ? null : (
        <>
          <ToolButton
            label="Undo"
            shortcut="Ctrl+Z"
            icon={Undo2}
            onClick={props.onUndo}
            disabled={!props.canUndo}
          />
          <ToolButton
            label="Redo"
            shortcut="Ctrl+Shift+Z"
            icon={Redo2}
            onClick={props.onRedo}
            disabled={!props.canRedo}
          />
          <Divider />
          <ToolButton
            label="Copy blocks"
            shortcut="Ctrl+C"
            icon={Copy}
            onClick={props.onCopy}
            disabled={!props.hasSelection}
          />
          <ToolButton label="Paste blocks" shortcut="Ctrl+V" icon={ClipboardPaste} onClick={props.onPaste} />
          <ToolButton
            label="Duplicate"
            shortcut="Ctrl+D"
            icon={CopyPlus}
            onClick={props.onDuplicate}
            disabled={!props.hasSelection}
          />
          <ToolButton
            label="Delete selection"
            shortcut="Delete"
            icon={Trash2}
            onClick={props.onDelete}
            disabled={!props.hasSelection}
          />
          <Divider />
          <ToolButton
            label="Arrange"
            text="Arrange"
            title="Arrange: lay the bot out left to right along its arrows (Undo takes it back)"
            icon={Network}
            onClick={props.onArrange}
            disabled={!props.canArrange}
          />
          <Divider />
        </>
      )}
      <ToolButton label="Zoom to fit" icon={Maximize} onClick={props.onFitView} />
      <Divider />
      <ToolButton
        label="Keyboard shortcuts"
        shortcut="?"
        icon={Keyboard}
        onClick={() => setShortcutsOpen(true)}
      />
      {shortcutsOpen ? <ShortcutsDialog onClose={() => setShortcutsOpen(false)} /> : null}
      <a
        href="/docs/builder"
        target="_blank"
        rel="noopener"
        aria-label="Builder guide"
        title="Builder guide (opens in a new tab)"
        className={toolClass}
      >
        <BookOpen className="size-4" aria-hidden />
      </a>
      <div className="ml-auto flex flex-wrap items-center gap-2">{props.children}</div>
    </div>
  );
});
