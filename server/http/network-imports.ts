/**
 * Finds outgoing-call APIs in source text: everything outgoing must go through server/http.
 * Creating servers (tests' fake APIs) and relative fetches from the browser are fine, and so are
 * tests' own requests (fetch, http.request) to the local servers they start. A request a server
 * makes to its own listening socket (npm start asking itself for its first page) is not
 * outgoing: its line says so with the comment `own server`, which nothing else may use.
 */
const FORBIDDEN: { pattern: RegExp; what: string; serverOnly?: boolean }[] = [
  { pattern: /from\s+['"](undici|node:https|https|node-fetch|axios|got)['"]/, what: 'an HTTP client import' },
  {
    pattern: /require\(\s*['"](undici|node:https|https|node-fetch|axios|got)['"]\s*\)/,
    what: 'an HTTP client require',
  },
  { pattern: /\bhttps?\.(request|get)\s*\(/, what: 'http.request/http.get', serverOnly: true },
  { pattern: /(^|[^.\w])fetch\s*\(/, what: 'fetch()', serverOnly: true },
];

const OWN_SERVER = /\/\* own server \*\//;

export interface Finding {
  line: number;
  what: string;
  text: string;
}

export function findOutgoingCalls(source: string, options: { serverCode: boolean }): Finding[] {
  const findings: Finding[] = [];
  source.split('\n').forEach((text, i) => {
    if (/^\s*(\/\/|\*)/.test(text) || OWN_SERVER.test(text)) return;
    for (const rule of FORBIDDEN) {
      if (rule.serverOnly && !options.serverCode) continue;
      if (rule.pattern.test(text)) findings.push({ line: i + 1, what: rule.what, text: text.trim() });
    }
  });
  return findings;
}
