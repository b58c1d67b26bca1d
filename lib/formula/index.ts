export {
  type BuiltinEntry,
  catalogue,
  type InFlowName,
  type ParamSpec,
  planMessage,
  signature,
} from './catalogue';
export {
  type CompiledExpression,
  type CompiledFormula,
  compileExpression,
  compileFormula,
  type Diagnostic,
  type FormulaHost,
  type Plan,
  type RunOptions,
  type RuntimeError,
  type VariableStore,
} from './compile';
export {
  getCompletions,
  getDiagnostics,
  getHover,
  getSignatureHelp,
  highlight,
  type SourceKind,
  wordBefore,
} from './editor';
export { type KnownVariable, knownVariables, SYSTEM_VARIABLES } from './known-variables';
export { tokenize } from './lexer';
export { LIMITS } from './limits';
export { seededRandom } from './seeded-random';
export {
  deserializeValue,
  FormulaError,
  isTruthy,
  serializeValue,
  toDisplayString,
  type Value,
} from './values';
