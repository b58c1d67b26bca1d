export { encodeJsonBareValue, encodeJsonStringContent } from './encode';
export { findJsonSyntaxError, type JsonSyntaxError } from './json-check';
export { checkJsonFormat, type JsonFormatError } from './json-format-check';
export {
  checkJsonTemplate,
  type JsonTemplateError,
  type JsonTemplateOptions,
  type JsonTemplateResult,
  renderJsonTemplate,
} from './json-template';
export {
  isVariableName,
  MAX_EXPRESSIONS,
  MAX_NAME_LENGTH,
  MAX_NESTING_DEPTH,
  MAX_VALUE_LENGTH,
} from './limits';
export { findPlaceholders, type PlaceholderInfo, type PlaceholderKind } from './parse';
export {
  type RenderOptions,
  type RenderResult,
  renderTemplate,
  type TemplateContext,
  type TemplateMode,
  type TemplateWarning,
} from './render';
export { appendStoredValue, variableForPath } from './stored-value-pick';
export {
  extractStoredValues,
  parseStoredValues,
  type StoredValue,
  type StoredValueError,
  type StoredValueParseError,
  type StoredValuePhrase,
  type StoredValuesExtract,
  type StoredValuesParse,
  suggestStoredValuePaths,
} from './stored-values';
