import { describe, expect, it } from 'vitest';
import { junitXml, reportText } from './junit';
import type { TestReport } from './results';

const report: TestReport = {
  version: 0,
  startedAt: '2026-01-05T09:00:00.000Z',
  ms: 1250,
  passed: 1,
  failed: 1,
  results: [
    { testId: 1, name: 'Greets', passed: true, failedStep: null, difference: null, steps: [], ms: 20 },
    {
      testId: 2,
      name: 'Orders <pizza> & "sushi"',
      passed: false,
      failedStep: 1,
      difference: {
        field: 'messages[0].text',
        expected: 'Pizza costs 9.',
        actual: 'Sushi\u0007 is sold out.',
        message: "The bot's message 1 says something else.",
        blockId: 3,
      },
      steps: [],
      ms: 31,
    },
  ],
  coverage: { blocks: [1, 3], arrows: [2], blockTotal: 4, arrowTotal: 3 },
};

describe('reports', () => {
  it('writes JUnit XML a CI server reads: a testcase per test, the failure with its step and difference, escaped', () => {
    const xml = junitXml(report, 'Shop');
    expect(xml).toContain('<testsuites tests="2" failures="1" time="1.250">');
    expect(xml).toContain('<testcase classname="Shop (draft)" name="Greets" time="0.020"/>');
    expect(xml).toContain('name="Orders &lt;pizza&gt; &amp; &quot;sushi&quot;"');
    expect(xml).toContain(
      '<failure message="Step 2: The bot\'s message 1 says something else." type="messages[0].text">',
    );
    expect(xml).toContain('expected: Pizza costs 9.\nactual:   Sushi is sold out.\nblock: 3</failure>');
    expect(xml).not.toContain('\u0007');
  });

  it('prints a line per test and the totals with the coverage', () => {
    expect(reportText(report)).toBe(
      [
        '  ✓ Greets',
        '  ✗ Orders <pizza> & "sushi": step 2: The bot\'s message 1 says something else.',
        '      messages[0].text',
        '      expected: Pizza costs 9.',
        '      actual:   Sushi\u0007 is sold out.',
        '1 passed, 1 failed (1250 ms, 2 of 4 blocks covered).',
        '',
      ].join('\n'),
    );
  });
});
