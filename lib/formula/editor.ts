import { builtins, catalogue, type Plan, signature } from './catalogue';
import { statementParts } from './closures';
import { compileExpression, type Diagnostic } from './compile';
import { diagnoseParsed, planDiagnostics } from './diagnose';
import type { KnownVariable } from './known-variables';
import { KEYWORDS, type Token, tokenize } from './lexer';
import { parseExpression, parseFormula } from './parser';

/** What the builder's Monaco mode asks of the language: pure functions over the source text. */

export type HighlightKind =
  | 'number'
  | 'string'
  | 'keyword'
  | 'function'
  | 'variable'
  | 'operator'
  | 'comment'
  | 'invalid';

export interface HighlightToken {
  kind: HighlightKind;
  offset: number;
  length: number;
}

export function highlight(source: string): HighlightToken[] {
  const tokens = tokenize(source);
  return tokens.flatMap((t, i): HighlightToken[] => {
    const kind: HighlightKind | null =
      t.kind === 'number'
        ? 'number'
        : t.kind === 'string'
          ? 'string'
          : t.kind === 'keyword'
            ? 'keyword'
            : t.kind === 'comment'
              ? 'comment'
              : t.kind === 'error'
                ? 'invalid'
                : t.kind === 'operator'
                  ? 'operator'
                  : t.kind === 'name'
                    ? tokens[i + 1]?.text === '('
                      ? 'function'
                      : 'variable'
                    : null;
    return kind ? [{ kind, offset: t.offset, length: t.end - t.offset }] : [];
  });
}

export interface CompletionItem {
  label: string;
  kind: 'function' | 'variable' | 'keyword';
  detail: string;
  documentation: string;
  /** Text to insert; functions get their parentheses. */
  insertText: string;
}

/** The word being typed at the cursor (names may contain dots). */
export function wordBefore(source: string, offset: number): string {
  return /[\p{L}\p{N}_.]*$/u.exec(source.slice(0, offset))?.[0] ?? '';
}

const asKnown = (v: string | KnownVariable): KnownVariable =>
  typeof v === 'string' ? { name: v, detail: 'variable' } : v;

export function getCompletions(
  source: string,
  offset: number,
  knownVariables: readonly (string | KnownVariable)[] = [],
): CompletionItem[] {
  const prefix = wordBefore(source, offset).toLowerCase();
  if (tokenize(source.slice(0, offset)).some((t) => t.unclosed)) return [];
  const variables = new Map<string, KnownVariable>();
  for (const v of knownVariables.map(asKnown)) if (!variables.has(v.name)) variables.set(v.name, v);
  const items: CompletionItem[] = [
    ...catalogue.map((e) => ({
      label: e.name,
      kind: 'function' as const,
      detail: signature(e),
      documentation: `${e.doc}${e.plan === 'business' ? ' (business and AI plans)' : ''}\n\nExample: ${e.example}`,
      insertText: `${e.name}(`,
    })),
    ...[...variables.values()].map((v) => ({
      label: v.name,
      kind: 'variable' as const,
      detail: v.detail,
      documentation: '',
      insertText: v.name,
    })),
    ...['True', 'False', 'None', 'and', 'or', 'not'].map((k) => ({
      label: k,
      kind: 'keyword' as const,
      detail: 'keyword',
      documentation: '',
      insertText: k,
    })),
  ];
  return items.filter((i) => i.label.toLowerCase().startsWith(prefix));
}

export interface SignatureHelp {
  name: string;
  label: string;
  documentation: string;
  /** `span`: where the parameter stands in `label` (start, end offsets), to highlight it. */
  parameters: { label: string; documentation: string; span: [number, number] }[];
  activeParameter: number;
}

/** The innermost call the cursor is in, and which argument it is on. */
export function getSignatureHelp(source: string, offset: number): SignatureHelp | null {
  const tokens = tokenize(source.slice(0, offset)).filter((t) => t.kind !== 'comment' && t.kind !== 'eof');
  const stack: { name: string | null; commas: number }[] = [];
  tokens.forEach((t: Token, i) => {
    if (t.text === '(' || t.text === '[' || t.text === '{') {
      const prev = tokens[i - 1];
      stack.push({ name: t.text === '(' && prev?.kind === 'name' ? prev.text : null, commas: 0 });
    } else if (t.text === ')' || t.text === ']' || t.text === '}') stack.pop();
    else if (t.text === ',' && stack.length) stack[stack.length - 1].commas++;
  });
  const call = [...stack].reverse().find((s) => s.name !== null);
  const entry = call?.name ? builtins.get(call.name) : undefined;
  if (!call || !entry) return null;
  const last = entry.params.length - 1;
  const label = signature(entry);
  let cursor = label.indexOf('(');
  return {
    name: entry.name,
    label,
    documentation: entry.doc,
    parameters: entry.params.map((p) => {
      const start = label.indexOf(p.name, cursor);
      cursor = start + p.name.length;
      return {
        label: p.name,
        documentation: `${p.type}${p.required ? '' : ', optional'}${p.default ? ` (default ${p.default})` : ''}`,
        span: [p.rest ? start - 3 : start, cursor] as [number, number],
      };
    }),
    activeParameter: entry.params[last]?.rest ? Math.min(call.commas, last) : call.commas,
  };
}

export interface Hover {
  contents: string;
  offset: number;
  length: number;
}

export function getHover(
  source: string,
  offset: number,
  knownVariables: readonly KnownVariable[] = [],
): Hover | null {
  const token = tokenize(source).find((t) => t.offset <= offset && offset < t.end);
  if (!token) return null;
  if (token.kind === 'name') {
    const entry = builtins.get(token.text);
    if (entry) {
      return {
        contents: `**${signature(entry)}**\n\n${entry.doc}${entry.plan === 'business' ? '\n\nNeeds the business or AI plan.' : ''}\n\nExample: \`${entry.example}\``,
        offset: token.offset,
        length: token.end - token.offset,
      };
    }
    const scope = token.text.startsWith('client.')
      ? 'client profile variable'
      : token.text.startsWith('project.')
        ? 'project constant'
        : 'variable (deal, then client, then project)';
    const known = knownVariables.find((v) => v.name === token.text);
    return {
      contents: `**${token.text}**: ${known?.detail ?? scope}`,
      offset: token.offset,
      length: token.end - token.offset,
    };
  }
  if (token.kind === 'keyword' && KEYWORDS.has(token.text)) {
    return { contents: `**${token.text}**`, offset: token.offset, length: token.end - token.offset };
  }
  return null;
}

/** What the edited text is: a formula (lines of statements) or one comparison expression. */
export type SourceKind = 'formula' | 'expression';

/**
 * Errors to mark as the designer types; an empty comparison expression means "no expression".
 * Given the project's plan, also a warning on each call that plan does not allow.
 */
export function getDiagnostics(source: string, kind: SourceKind = 'formula', plan?: Plan): Diagnostic[] {
  if (kind === 'formula') {
    const parsed = parseFormula(source);
    const found = diagnoseParsed(parsed, source);
    return plan
      ? [...found, ...planDiagnostics(parsed.statements.flatMap(statementParts), source, plan)]
      : found;
  }
  if (!source.trim()) return [];
  const { diagnostics } = compileExpression(source);
  const { expr } = parseExpression(source);
  return plan && expr ? [...diagnostics, ...planDiagnostics([expr], source, plan)] : diagnostics;
}
