import { z } from 'zod';
import { actions } from '@/server/public-api/actions';

export const metadata = { title: 'API reference' };

/**
 * The public API reference, rendered from the same action registry and zod schemas that serve
 * the API (and /api/openapi.json), so it cannot drift from the code.
 */
export default function ApiReferencePage() {
  const sorted = [...actions].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <main className="mx-auto max-w-4xl space-y-8 p-6">
      <header className="space-y-2">
        <h1 className="text-3xl font-semibold">Blockbot API reference</h1>
        <p className="text-slate-600">
          Every action is called as{' '}
          <code>
            /api/{'{api_key}'}/{'{action}'}
          </code>{' '}
          with GET (query string) or POST (JSON or form body). Answers are JSON:{' '}
          <code>{'{"status": "success", ...}'}</code>, or{' '}
          <code>{'{"status": "error", "error", "message"}'}</code> with status 400, 401, 403, 404, 405, 413 or
          429. <code>value_client_id</code>, <code>value_phone</code>, <code>value_email</code>,{' '}
          <code>value_user_id</code> and <code>value_group_id</code> name the parameter that holds that
          identifier (universal-webhook mode). The machine-readable document is at{' '}
          <a className="text-brand-600 underline" href="/api/openapi.json">
            /api/openapi.json
          </a>
          .
        </p>
        <nav className="flex flex-wrap gap-2 text-sm">
          {sorted.map((a) => (
            <a
              key={a.name}
              href={`#${a.name}`}
              className="rounded bg-slate-100 px-2 py-0.5 font-mono hover:bg-slate-200"
            >
              {a.name}
            </a>
          ))}
        </nav>
      </header>
      {sorted.map((action) => {
        const schema = z.toJSONSchema(action.input, { io: 'input', unrepresentable: 'any' }) as {
          properties?: Record<string, { type?: string; description?: string }>;
          required?: string[];
        };
        const params = Object.entries(schema.properties ?? {});
        return (
          <section
            key={action.name}
            id={action.name}
            className="space-y-3 rounded-lg border border-slate-200 bg-white p-5"
          >
            <h2 className="font-mono text-lg font-semibold">
              {action.methods.join(' | ')} /api/{'{api_key}'}/{action.name}
            </h2>
            <p className="font-medium">{action.summary}</p>
            {action.description ? <p className="text-sm text-slate-600">{action.description}</p> : null}
            {params.length ? (
              <table className="w-full text-left text-sm">
                <thead className="text-xs text-slate-500 uppercase">
                  <tr>
                    <th className="py-1">Parameter</th>
                    <th>Type</th>
                    <th>Required</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {params.map(([name, p]) => (
                    <tr key={name}>
                      <td className="py-1 font-mono">{name}</td>
                      <td>{p.type ?? 'any'}</td>
                      <td>{schema.required?.includes(name) ? 'yes' : 'no'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p className="text-sm text-slate-500">No parameters.</p>
            )}
            <div className="grid gap-3 md:grid-cols-2">
              <pre className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
                {`curl -X POST https://your-host/api/<API_KEY>/${action.name} \\\n  -H 'Content-Type: application/json' \\\n  -d '${JSON.stringify(action.example)}'`}
              </pre>
              <pre className="overflow-x-auto rounded bg-slate-100 p-3 text-xs">
                {JSON.stringify({ status: 'success', ...action.responseExample }, null, 2)}
              </pre>
            </div>
          </section>
        );
      })}
    </main>
  );
}
