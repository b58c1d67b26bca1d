import {
  type CompiledExpression,
  type CompiledFormula,
  compileExpression,
  compileFormula,
} from '@/lib/formula';

/**
 * Formulas are compiled once and evaluated many times. Keyed by source text, so every schema
 * revision and every instance reuses what is unchanged.
 */
const MAX_ENTRIES = 5000;
const formulas = new Map<string, CompiledFormula>();
const expressions = new Map<string, CompiledExpression>();

function cached<T>(cache: Map<string, T>, source: string, compile: (s: string) => T): T {
  let entry = cache.get(source);
  if (!entry) {
    entry = compile(source);
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(source, entry);
  }
  return entry;
}

export const getFormula = (source: string) => cached(formulas, source, compileFormula);
export const getExpression = (source: string) => cached(expressions, source, compileExpression);
