import type { TestReport } from './results';

/**
 * A run's report as JUnit XML (the format CI servers read: GitLab, Jenkins, GitHub's test
 * reporters): one testsuite for the bot tested, one testcase per test, a failure with the step
 * and the difference, expected beside actual.
 */

/** XML 1.0 allows tab, line feed and carriage return of the control characters, and no U+FFFE/U+FFFF. */
const allowedInXml = (code: number) =>
  code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code !== 0xfffe && code !== 0xffff);

const xmlText = (text: string) =>
  Array.from(text)
    .filter((char) => allowedInXml(char.codePointAt(0) ?? 0))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

export function junitXml(report: TestReport, projectName: string): string {
  const suite = `${projectName} (${report.version ? `version ${report.version}` : 'draft'})`;
  const cases = report.results.map((result) => {
    const head = `    <testcase classname="${xmlText(suite)}" name="${xmlText(result.name)}" time="${(result.ms / 1000).toFixed(3)}"`;
    const d = result.difference;
    if (result.passed || !d) return `${head}/>`;
    const message = `Step ${(result.failedStep ?? 0) + 1}: ${d.message}`;
    const body = `${d.field}\nexpected: ${d.expected}\nactual:   ${d.actual}${d.blockId ? `\nblock: ${d.blockId}` : ''}`;
    return `${head}>\n      <failure message="${xmlText(message)}" type="${xmlText(d.field)}">${xmlText(body)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${report.results.length}" failures="${report.failed}" time="${(report.ms / 1000).toFixed(3)}">`,
    `  <testsuite name="${xmlText(suite)}" tests="${report.results.length}" failures="${report.failed}" errors="0" skipped="0" timestamp="${report.startedAt}" time="${(report.ms / 1000).toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** The report as the terminal shows it: a line per test, the difference under a failed one. */
export function reportText(report: TestReport): string {
  const lines = report.results.map((r) => {
    if (r.passed) return `  ✓ ${r.name}`;
    const d = r.difference;
    return [
      `  ✗ ${r.name}: step ${(r.failedStep ?? 0) + 1}: ${d?.message ?? 'failed'}`,
      ...(d ? [`      ${d.field}`, `      expected: ${d.expected}`, `      actual:   ${d.actual}`] : []),
    ].join('\n');
  });
  const covered = report.coverage.blockTotal
    ? `, ${report.coverage.blocks.length} of ${report.coverage.blockTotal} blocks covered`
    : '';
  return `${lines.join('\n')}${lines.length ? '\n' : ''}${report.passed} passed, ${report.failed} failed (${report.ms} ms${covered}).\n`;
}
