import { type FormulaHost, toDisplayString } from '@/lib/formula';
import { withSecretSentinels } from '@/lib/secrets/secret-refs';
import { findPlaceholders, renderTemplate, type TemplateContext } from '@/lib/template';
import type { EngineScope } from './engine-scope';
import { getExpression } from './formula-cache';
import type { RunHost } from './run-context';

/**
 * `#{...}` substitution for the event (bot-semantics §3), and the options its formulas run with.
 * Expressions (`#{2+2}`) may be async: a step prepares those its texts need, then renders.
 */
export class RunTemplates {
  #expressionValues = new Map<string, string>();
  /** Names `#{...}` read that no variable has, logged once per event: they render empty. */
  readonly #unknownNames = new Set<string>();

  constructor(
    private readonly run: RunHost,
    private readonly scope: EngineScope,
    /** One host for the whole event, so its call cap counts the event's calls, not one formula's. */
    private readonly host: FormulaHost,
    private readonly random?: () => number,
  ) {}

  formulaOptions() {
    return {
      store: this.scope,
      host: this.host,
      plan: this.run.project.plan,
      now: this.run.now,
      random: this.random,
      timeZone: this.run.project.timeZone,
    };
  }

  /** `#{...}` substitution, with the expressions `prepareExpressions` evaluated last. */
  render(text: string, mode: 'text' | 'url' = 'text'): string {
    return renderTemplate(text, this.templateContext(), { mode }).text;
  }

  /**
   * The variables and the expressions `prepareExpressions` evaluated, for substitution. A
   * request's (`forRequest`) leaves `#{secret.NAME}` for the HTTP client to fill.
   */
  templateContext(forRequest = false): TemplateContext {
    const lookup = (name: string) => {
      const value = this.scope.get(name);
      if (value === undefined && !this.#unknownNames.has(name)) {
        this.#unknownNames.add(name);
        this.run.note('unknown_variable', { name });
      }
      return value;
    };
    return {
      lookup: forRequest ? withSecretSentinels(lookup) : lookup,
      evaluate: (expr) => this.#expressionValues.get(expr) ?? '',
    };
  }

  /**
   * Evaluates the expressions the texts need, for the `render` calls that follow. Fresh each
   * time: a formula, a request's stored values or a system variable may have changed since.
   */
  async prepareExpressions(...texts: string[]): Promise<void> {
    this.#expressionValues = new Map();
    for (const text of texts) {
      if (!text.includes('#{')) continue;
      // Two passes: the first learns which expressions the text needs (nested names resolved).
      const wanted = new Set<string>();
      renderTemplate(
        text,
        this.scope.templateContext((expr) => {
          wanted.add(expr);
          return '';
        }),
      );
      for (const p of findPlaceholders(text))
        if (p.kind === 'expression' && p.expression) wanted.add(p.expression);
      for (const expression of wanted) {
        if (this.#expressionValues.has(expression)) continue;
        const compiled = getExpression(expression);
        try {
          this.#expressionValues.set(
            expression,
            toDisplayString(await compiled.evaluate(this.formulaOptions())),
          );
        } catch (error) {
          this.run.note('formula_error', { expression, message: (error as Error).message });
          this.#expressionValues.set(expression, '');
        }
      }
    }
  }
}
