'use client';

import Editor, { loader } from '@monaco-editor/react';
// The editor core and its contributions (suggest, hover, parameter hints, markers), without the
// bundled languages this editor never uses.
import 'monaco-editor/esm/vs/editor/editor.all.js';
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api.js';
import { useEffect, useRef, useState } from 'react';
import type { KnownVariable, Plan, SourceKind } from '@/lib/formula';
import { textEdits } from '@/lib/schema/merge-values';
import {
  attachModel,
  FORMULA_LANGUAGE,
  FORMULA_THEME,
  registerFormulaLanguage,
  updateMarkers,
} from './formula-language';

// Loaded from the local package: @monaco-editor/react would fetch Monaco from a CDN otherwise.
self.MonacoEnvironment = {
  getWorker: () => new Worker(new URL('./editor.worker.ts', import.meta.url), { type: 'module' }),
};
loader.config({ monaco });
registerFormulaLanguage(monaco);

export interface MonacoFormulaEditorProps {
  /** Given to Monaco's text area, so the field's label and error are tied to it. */
  id: string;
  describedBy?: string;
  value: string;
  onChange(value: string): void;
  /** The accessible name of the editor's text area. */
  label: string;
  kind: SourceKind;
  variables(): readonly KnownVariable[];
  plan: Plan | undefined;
  invalid: boolean;
  /**
   * The text area it stands in for is gone: only now does Monaco's take the field's id and label,
   * so the field never has two controls of one name (a moment's two, the fallback's last render).
   */
  replacing: boolean;
  onReady(focus: () => void): void;
}

const LINE_HEIGHT = 18;
const PADDING = 8;

/** Monaco with the formula language; grows with its text up to a limit. */
export default function MonacoFormulaEditor({
  id,
  describedBy,
  value,
  onChange,
  label,
  kind,
  variables,
  plan,
  invalid,
  replacing,
  onReady,
}: MonacoFormulaEditorProps) {
  // The completion provider asks for the variables later: always through the latest callback.
  const latestVariables = useRef(variables);
  latestVariables.current = variables;
  const latestPlan = useRef(plan);
  const latestValue = useRef(value);
  latestValue.current = value;
  const model = useRef<monaco.editor.ITextModel | null>(null);
  // The plan comes after the editor (its query) or changes: the markers follow it.
  useEffect(() => {
    latestPlan.current = plan;
    if (model.current) updateMarkers(monaco, model.current);
  }, [plan]);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  /** A value from outside being taken in: not the designer's typing, so not handed back. */
  const takingIn = useRef(false);
  // A value from outside (a colleague's edit merged in, Undo) is taken in as the edits that
  // make it, so one's cursor and selection stay where they are; Monaco's own `value` handling
  // would replace the whole text and put the cursor at its end.
  useEffect(() => {
    const editor = editorRef.current;
    const current = model.current;
    if (!editor || !current || current.getValue() === value) return;
    const edits = textEdits(current.getValue(), value).map((edit) => ({
      range: monaco.Range.fromPositions(current.getPositionAt(edit.start), current.getPositionAt(edit.end)),
      text: edit.text,
    }));
    takingIn.current = true;
    try {
      editor.executeEdits('outside', edits);
      editor.pushUndoStop();
    } finally {
      takingIn.current = false;
    }
  }, [value]);
  const detach = useRef<(() => void) | null>(null);
  const input = useRef<HTMLTextAreaElement | null>(null);
  const maxLines = kind === 'formula' ? 14 : 4;
  const minLines = kind === 'formula' ? 3 : 1;
  const [height, setHeight] = useState(LINE_HEIGHT * minLines + PADDING);
  useEffect(() => () => detach.current?.(), []);
  // Monaco's text area is the field's control: the label's id, the error and the invalid state.
  const tieToField = (el: HTMLTextAreaElement | null) => {
    if (!el || !replacing) return;
    el.id = id;
    if (describedBy) el.setAttribute('aria-describedby', describedBy);
    else el.removeAttribute('aria-describedby');
    el.setAttribute('aria-invalid', String(invalid));
  };
  useEffect(() => tieToField(input.current));

  return (
    <div
      data-testid="formula-editor"
      data-invalid={invalid || undefined}
      className={`overflow-hidden rounded-md border ${invalid ? 'border-red-500' : 'border-slate-300'}`}
    >
      <Editor
        height={height}
        language={FORMULA_LANGUAGE}
        theme={FORMULA_THEME}
        defaultValue={value}
        onChange={(next) => {
          if (!takingIn.current) onChange(next ?? '');
        }}
        loading={null}
        options={{
          ariaLabel: replacing ? label : '',
          // A text area (not Chromium's EditContext) can carry the field's id and label.
          editContext: false,
          minimap: { enabled: false },
          lineNumbers: kind === 'formula' ? 'on' : 'off',
          lineNumbersMinChars: 2,
          lineDecorationsWidth: 4,
          glyphMargin: false,
          folding: false,
          scrollBeyondLastLine: false,
          wordWrap: 'on',
          fontSize: 12,
          lineHeight: LINE_HEIGHT,
          padding: { top: PADDING / 2, bottom: PADDING / 2 },
          automaticLayout: true,
          // The side panel clips its content; the suggestion list and hovers must overflow it.
          fixedOverflowWidgets: true,
          overviewRulerLanes: 0,
          hideCursorInOverviewRuler: true,
          renderLineHighlight: 'none',
          scrollbar: { alwaysConsumeMouseWheel: false, horizontal: 'hidden', verticalScrollbarSize: 8 },
          'semanticHighlighting.enabled': true,
          wordBasedSuggestions: 'off',
          quickSuggestions: { other: true, comments: false, strings: false },
          suggest: { showWords: false },
          tabSize: 2,
          contextmenu: false,
        }}
        onMount={(editor) => {
          const mounted = editor.getModel();
          if (!mounted) return;
          model.current = mounted;
          editorRef.current = editor;
          // The value may have moved on while Monaco loaded.
          if (mounted.getValue() !== latestValue.current) mounted.setValue(latestValue.current);
          input.current = editor.getDomNode()?.querySelector('textarea') ?? null;
          tieToField(input.current);
          detach.current = attachModel(mounted, {
            kind,
            variables: () => latestVariables.current(),
            plan: () => latestPlan.current,
          });
          updateMarkers(monaco, mounted);
          mounted.onDidChangeContent(() => updateMarkers(monaco, mounted));
          const fitHeight = () =>
            setHeight(
              Math.min(
                LINE_HEIGHT * maxLines + PADDING,
                Math.max(LINE_HEIGHT * minLines + PADDING, editor.getContentHeight()),
              ),
            );
          editor.onDidContentSizeChange(fitHeight);
          fitHeight();
          onReady(() => editor.focus());
        }}
      />
    </div>
  );
}
