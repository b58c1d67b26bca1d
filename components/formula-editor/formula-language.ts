import type * as Monaco from 'monaco-editor/esm/vs/editor/editor.api.js';
import {
  getCompletions,
  getDiagnostics,
  getHover,
  getSignatureHelp,
  type KnownVariable,
  type Plan,
  type SourceKind,
  wordBefore,
} from '@/lib/formula';
import { semanticTokenData, TOKEN_TYPES } from './semantic-tokens';

type MonacoApi = typeof Monaco;

export const FORMULA_LANGUAGE = 'blockbot-formula';
export const FORMULA_THEME = 'blockbot-formula';
const MARKER_OWNER = 'blockbot-formula';

/** What one editor's model is: a formula or a comparison expression, and the variables it can complete. */
export interface ModelSettings {
  kind: SourceKind;
  variables(): readonly KnownVariable[];
  /** The project's plan, read at each check: calls it does not allow get a warning. */
  plan(): Plan | undefined;
}

/** The providers are registered once for the language; each model's own settings are looked up here. */
const models = new Map<string, ModelSettings>();

export function attachModel(model: Monaco.editor.ITextModel, settings: ModelSettings): () => void {
  const key = model.uri.toString();
  models.set(key, settings);
  return () => {
    if (models.get(key) === settings) models.delete(key);
  };
}

const settingsOf = (model: Monaco.editor.ITextModel): ModelSettings =>
  models.get(model.uri.toString()) ?? { kind: 'formula', variables: () => [], plan: () => undefined };

/** Error markers from the same parser the server uses; called on every change and plan change. */
export function updateMarkers(monaco: MonacoApi, model: Monaco.editor.ITextModel) {
  const settings = settingsOf(model);
  const diagnostics = getDiagnostics(model.getValue(), settings.kind, settings.plan());
  monaco.editor.setModelMarkers(
    model,
    MARKER_OWNER,
    diagnostics.map((d) => ({
      severity: d.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
      message: d.message,
      startLineNumber: d.line,
      startColumn: d.column,
      endLineNumber: d.endLine,
      endColumn: d.endColumn,
    })),
  );
}

function rangeOf(model: Monaco.editor.ITextModel, offset: number, length: number): Monaco.IRange {
  const start = model.getPositionAt(offset);
  const end = model.getPositionAt(offset + length);
  return {
    startLineNumber: start.lineNumber,
    startColumn: start.column,
    endLineNumber: end.lineNumber,
    endColumn: end.column,
  };
}

const registered = Symbol.for('blockbot.formulaLanguage');

/**
 * Registers the formula language, its theme and its providers (completion, signature help, hover,
 * semantic highlighting) once per page: React strict mode and several editors mount more than once.
 */
export function registerFormulaLanguage(monaco: MonacoApi) {
  const page = globalThis as { [registered]?: true };
  if (page[registered]) return;
  page[registered] = true;
  const { languages } = monaco;

  languages.register({ id: FORMULA_LANGUAGE });
  languages.setLanguageConfiguration(FORMULA_LANGUAGE, {
    comments: { blockComment: ['/*', '*/'] },
    brackets: [
      ['(', ')'],
      ['[', ']'],
      ['{', '}'],
    ],
    autoClosingPairs: [
      { open: '(', close: ')' },
      { open: '[', close: ']' },
      { open: '{', close: '}' },
      { open: "'", close: "'", notIn: ['string'] },
      { open: '"', close: '"', notIn: ['string'] },
    ],
    // Names carry their scope: `client.phone` is one word.
    wordPattern: /[A-Za-z_][A-Za-z0-9_.]*|\d+(?:\.\d+)?/g,
  });

  monaco.editor.defineTheme(FORMULA_THEME, {
    base: 'vs',
    inherit: true,
    rules: [
      { token: 'number', foreground: '0b7a4b' },
      { token: 'string', foreground: 'a31515' },
      { token: 'keyword', foreground: '7c3aed', fontStyle: 'bold' },
      { token: 'function', foreground: '1d4ed8' },
      { token: 'variable', foreground: '0f172a' },
      { token: 'operator', foreground: '64748b' },
      { token: 'comment', foreground: '94a3b8', fontStyle: 'italic' },
      { token: 'invalid', foreground: 'dc2626', fontStyle: 'underline' },
    ],
    colors: {},
  });

  languages.registerDocumentSemanticTokensProvider(FORMULA_LANGUAGE, {
    getLegend: () => ({ tokenTypes: [...TOKEN_TYPES], tokenModifiers: [] }),
    provideDocumentSemanticTokens: (model) => ({ data: semanticTokenData(model.getValue()) }),
    releaseDocumentSemanticTokens: () => {},
  });

  const kinds = {
    function: languages.CompletionItemKind.Function,
    variable: languages.CompletionItemKind.Variable,
    keyword: languages.CompletionItemKind.Keyword,
  };
  languages.registerCompletionItemProvider(FORMULA_LANGUAGE, {
    triggerCharacters: ['.'],
    provideCompletionItems(model, position) {
      const source = model.getValue();
      const offset = model.getOffsetAt(position);
      const typed = wordBefore(source, offset);
      const range = {
        startLineNumber: position.lineNumber,
        startColumn: position.column - typed.length,
        endLineNumber: position.lineNumber,
        endColumn: position.column,
      };
      const items = getCompletions(source, offset, settingsOf(model).variables());
      return {
        suggestions: items.map((item, i) => ({
          label: item.label,
          kind: kinds[item.kind],
          detail: item.detail,
          documentation: item.documentation ? { value: item.documentation } : undefined,
          insertText: item.insertText,
          // Keep the language's order: functions, then variables, then keywords.
          sortText: String(i).padStart(4, '0'),
          range,
          // A function is inserted with its `(`: show its parameters right away.
          command:
            item.kind === 'function'
              ? { id: 'editor.action.triggerParameterHints', title: 'Show parameters' }
              : undefined,
        })),
      };
    },
  });

  languages.registerSignatureHelpProvider(FORMULA_LANGUAGE, {
    signatureHelpTriggerCharacters: ['(', ','],
    signatureHelpRetriggerCharacters: [')'],
    provideSignatureHelp(model, position) {
      const help = getSignatureHelp(model.getValue(), model.getOffsetAt(position));
      if (!help) return null;
      return {
        value: {
          signatures: [
            {
              label: help.label,
              documentation: help.documentation,
              parameters: help.parameters.map((p) => ({ label: p.span, documentation: p.documentation })),
            },
          ],
          activeSignature: 0,
          activeParameter: help.activeParameter,
        },
        dispose() {},
      };
    },
  });

  languages.registerHoverProvider(FORMULA_LANGUAGE, {
    provideHover(model, position) {
      const hover = getHover(model.getValue(), model.getOffsetAt(position), settingsOf(model).variables());
      if (!hover) return null;
      return { contents: [{ value: hover.contents }], range: rangeOf(model, hover.offset, hover.length) };
    },
  });
}
