import { describe, expect, it } from 'vitest';
import { getCompletions, getDiagnostics, getHover, getSignatureHelp, wordBefore } from './editor';

describe('formula editor support', () => {
  it('completes known variables with where they come from, once each, the first source winning', () => {
    const items = getCompletions('x = or', 6, [
      { name: 'order_id', detail: 'system variable: the deal' },
      { name: 'order_total', detail: 'set by the formula of block #2' },
      { name: 'order_id', detail: 'set by the formula of block #9' },
    ]);
    expect(items.map((i) => [i.label, i.detail])).toEqual([
      ['order_id', 'system variable: the deal'],
      ['order_total', 'set by the formula of block #2'],
      ['or', 'keyword'],
    ]);
  });

  it('takes the word before the cursor with dots, for the range a completion replaces', () => {
    expect(wordBefore('x = client.na', 13)).toBe('client.na');
    expect(wordBefore('len(a', 5)).toBe('a');
    expect(wordBefore('x = ', 4)).toBe('');
  });

  it("gives each parameter's place in the signature label, so the active one can be highlighted", () => {
    const help = getSignatureHelp("x = replace('a', ", 17)!;
    const spans = help.parameters.map((p) => help.label.slice(...p.span));
    expect(spans).toEqual(['text', 'old', 'new']);
    const min = getSignatureHelp('min(1, 2, 3, ', 13)!;
    expect(min.parameters.map((p) => min.label.slice(...p.span))).toEqual(['values', '...more']);
    expect(min.activeParameter).toBe(1);
  });

  it('hovers a known variable with where it comes from', () => {
    const known = [{ name: 'total', detail: 'set by the formula of block #4' }];
    expect(getHover('x = total + 1', 5, known)?.contents).toBe('**total**: set by the formula of block #4');
    expect(getHover('x = other', 5, known)?.contents).toContain('deal, then client, then project');
  });

  it('diagnoses a comparison expression as one expression; empty means no expression', () => {
    expect(getDiagnostics('', 'expression')).toEqual([]);
    expect(getDiagnostics('age >= 18', 'expression')).toEqual([]);
    expect(getDiagnostics('x = 1', 'expression')[0].message).toContain('an expression is expected');
    expect(getDiagnostics('lenn(name) > 2', 'expression')[0]).toMatchObject({
      message: 'unknown function lenn()',
      line: 1,
      column: 1,
    });
    const [unclosed] = getDiagnostics('round(price', 'expression');
    expect(unclosed.severity).toBe('error');
    // The same text as a formula is a statement, and fine there.
    expect(getDiagnostics('x = 1')).toEqual([]);
  });

  it("warns where an in-flow function is written when the project's plan does not allow it", () => {
    const source = 'x = 1\nasked = ask_operator()';
    expect(getDiagnostics(source, 'formula', 'free')).toEqual([
      {
        message:
          'ask_operator() needs the business or AI plan; this project is on the free plan (change it in Settings, Plan): the call fails when it runs',
        severity: 'warning',
        line: 2,
        column: 9,
        endLine: 2,
        endColumn: 21,
      },
    ]);
    expect(getDiagnostics(source, 'formula', 'business')).toEqual([]);
    expect(getDiagnostics(source, 'formula', 'ai')).toEqual([]);
    // Without a plan (the schema's own checks) nothing is said; a core function needs no plan.
    expect(getDiagnostics(source)).toEqual([]);
    expect(getDiagnostics('x = len(name)', 'formula', 'free')).toEqual([]);
    expect(
      getDiagnostics("requests_get('https://x.test')['status'] == 200", 'expression', 'free'),
    ).toMatchObject([{ severity: 'warning', line: 1, column: 1, endColumn: 13 }]);
  });
});
