'use client';

import { Alert } from '@/components/ui/alert';
import type { TestRequestResult } from '@/server/projects/run-test-request';

const failures: Record<NonNullable<TestRequestResult['error']>['code'], string> = {
  invalid: 'The request could not be built',
  bad_url: 'Not a URL that can be called',
  bad_header: 'Header refused',
  blocked_address: 'Refused address',
  dns: 'Host not found',
  timeout: 'No answer in time',
  cancelled: 'Request stopped',
  too_large: 'Reply too large',
  proxy_not_configured: 'Proxy not configured',
  bad_proxy: 'Bad proxy',
  network: 'Network error',
  redirect: 'Redirect refused',
};

/** A JSON body indented to be read; anything else (or a body cut short) as it came. */
function readable(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** What a test request sent and got back; JSON paths can be picked into the stored values. */
export function TestResult({ result, onPick }: { result: TestRequestResult; onPick(path: string): void }) {
  const { request, response, error } = result;
  return (
    <div data-testid="test-result" className="space-y-2 text-xs">
      <p className="font-mono break-all text-slate-500">
        {request.method} {request.url}
      </p>
      {error ? (
        <Alert tone="error">
          <strong>{failures[error.code]}:</strong> {error.message}
        </Alert>
      ) : null}
      {response ? (
        <>
          <p data-testid="test-status" className="text-sm">
            <span
              className={`rounded px-1.5 py-0.5 font-mono font-semibold ${
                response.status < 400 ? 'bg-emerald-100 text-emerald-800' : 'bg-red-100 text-red-800'
              }`}
            >
              HTTP {response.status}
            </span>{' '}
            <span className="text-slate-500">in {response.durationMs} ms</span>
          </p>
          <details>
            <summary className="cursor-pointer text-slate-600">
              Reply headers ({Object.keys(response.headers).length})
            </summary>
            <dl
              data-testid="test-headers"
              className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 font-mono break-all"
            >
              {Object.entries(response.headers).map(([name, value]) => (
                <div key={name} className="contents">
                  <dt className="text-slate-500">{name}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          </details>
          <pre
            data-testid="test-body"
            className="max-h-60 overflow-auto rounded-md bg-slate-50 p-2 font-mono whitespace-pre-wrap break-all"
          >
            {readable(response.body) || '(empty)'}
          </pre>
          {response.bodyLength > response.body.length ? (
            <p className="text-slate-500">
              Showing the first {response.body.length.toLocaleString('en')} of{' '}
              {response.bodyLength.toLocaleString('en')} characters.
            </p>
          ) : null}
        </>
      ) : null}
      {result.stored.length ? (
        <div>
          <p className="font-medium text-slate-700">The stored values would save:</p>
          <ul data-testid="test-stored" className="font-mono break-all">
            {result.stored.map((s) => (
              <li key={s.variable}>
                {s.variable} = {s.value.slice(0, 200)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {result.problems.length ? (
        <ul data-testid="test-problems" className="list-disc space-y-1 pl-4 text-amber-800">
          {result.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      {result.paths?.length ? (
        <div>
          <p className="font-medium text-slate-700">Pick a value to store:</p>
          <ul aria-label="Paths in the reply" className="max-h-48 space-y-0.5 overflow-auto">
            {result.paths.map(({ path, value }) => (
              <li key={path}>
                <button
                  type="button"
                  aria-label={`Store ${path}`}
                  title={`Add ${path}->… to the stored values`}
                  onClick={() => onPick(path)}
                  className="flex w-full gap-2 rounded px-1 py-0.5 text-left font-mono hover:bg-sky-50"
                >
                  <span className="text-sky-800">{path}</span>
                  <span className="truncate text-slate-500">{value}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : response && result.paths === null ? (
        <p className="text-slate-500">
          The reply is not JSON: only JSON replies can be saved into variables.
        </p>
      ) : null}
    </div>
  );
}
