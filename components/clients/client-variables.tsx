'use client';

import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input, Select, Textarea } from '@/components/ui/input';

type Scope = 'deal' | 'client';
const PREFIX: Record<Scope, string> = { deal: '', client: 'client.' };
const SCOPE_TITLES = {
  deal: 'Deal variables',
  client: 'Client variables',
  project: 'Project constants',
} as const;

export interface ScopedVariables {
  deal: Record<string, string>;
  client: Record<string, string>;
  project: Record<string, string>;
}

/**
 * The client's variables by scope, edited in place. Every change goes through save_variables'
 * own operation on the server, so the limits and the error texts are the API's; the error is
 * shown at the variable it names. Project constants are read here and changed in the settings.
 */
export function ClientVariables({
  projectId,
  clientId,
  variables,
  onSaved,
}: {
  projectId: number;
  clientId: number;
  variables: ScopedVariables;
  onSaved(): Promise<unknown>;
}) {
  const trpc = useTRPC();
  const save = useMutation(trpc.clients.saveVariables.mutationOptions({ onSuccess: onSaved }));
  const saveOne = (name: string, value: string | null) =>
    save.mutateAsync({ projectId, clientId, variables: { [name]: value } });

  return (
    <div className="space-y-4">
      {(['deal', 'client'] as const).map((scope) => (
        <section key={scope} aria-label={SCOPE_TITLES[scope]}>
          <h3 className="mb-1 text-sm font-semibold text-slate-800">{SCOPE_TITLES[scope]}</h3>
          {Object.keys(variables[scope]).length ? (
            <ul className="divide-y divide-slate-100">
              {Object.entries(variables[scope]).map(([name, value]) => (
                <VariableRow
                  // A saved or outside change starts the row again from the stored value.
                  key={`${name}\n${value}`}
                  name={`${PREFIX[scope]}${name}`}
                  value={value}
                  onSave={saveOne}
                />
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">
              {scope === 'deal' ? 'The open deal has no variables.' : 'No client variables.'}
            </p>
          )}
        </section>
      ))}
      <AddVariable onSave={saveOne} />
      <section aria-label={SCOPE_TITLES.project}>
        <h3 className="mb-1 text-sm font-semibold text-slate-800">{SCOPE_TITLES.project}</h3>
        {Object.keys(variables.project).length ? (
          <dl className="divide-y divide-slate-100 text-sm">
            {Object.entries(variables.project).map(([name, value]) => (
              <div key={name} className="flex min-w-0 gap-2 py-1">
                <dt className="shrink-0 font-mono text-xs leading-5 text-slate-600">project.{name}</dt>
                <dd className="min-w-0 truncate text-slate-800">{value}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="text-sm text-slate-500">None.</p>
        )}
        <p className="mt-1 text-xs text-slate-500">
          Read-only here:{' '}
          <Link href={`/projects/${projectId}/settings`} className="text-brand-700 underline">
            change them in the settings
          </Link>
          .
        </p>
      </section>
    </div>
  );
}

function errorText(e: unknown) {
  return e instanceof Error ? e.message : 'The variable could not be saved.';
}

function VariableRow({
  name,
  value,
  onSave,
}: {
  name: string;
  value: string;
  onSave(name: string, value: string | null): Promise<unknown>;
}) {
  const [draft, setDraft] = useState(value);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const changed = draft !== value;
  const run = async (next: string | null) => {
    setBusy(true);
    setError(null);
    try {
      await onSave(name, next);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const id = `var-${name}`;
  return (
    <li className="space-y-1 py-2">
      <label htmlFor={id} className="block truncate font-mono text-xs text-slate-600">
        {name}
      </label>
      <div className="flex items-start gap-1.5">
        <Textarea
          id={id}
          rows={1}
          className="min-h-9 flex-1 resize-y"
          value={draft}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setDraft(e.target.value)}
        />
        {changed ? (
          <Button size="sm" className="h-9" disabled={busy} onClick={() => run(draft)}>
            Save
          </Button>
        ) : null}
        <Button
          variant="ghost"
          size="sm"
          className="h-9"
          disabled={busy}
          onClick={() => run(null)}
          aria-label={`Delete ${name}`}
          title={`Delete ${name}`}
        >
          ✕
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </li>
  );
}

function AddVariable({ onSave }: { onSave(name: string, value: string | null): Promise<unknown> }) {
  const [scope, setScope] = useState<Scope>('deal');
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSave(`${PREFIX[scope]}${name.trim()}`, value);
      setName('');
      setValue('');
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} aria-label="Add a variable" className="space-y-1.5 rounded-md bg-slate-50 p-2">
      <div className="grid grid-cols-[auto_minmax(0,1fr)] gap-1.5">
        <Select aria-label="Scope" value={scope} onChange={(e) => setScope(e.target.value as Scope)}>
          <option value="deal">Deal</option>
          <option value="client">Client</option>
        </Select>
        <Input
          aria-label="New variable name"
          placeholder="Name"
          value={name}
          required
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="flex gap-1.5">
        <Input
          aria-label="New variable value"
          placeholder="Value"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <Button type="submit" variant="secondary" disabled={busy || !name.trim()}>
          Add
        </Button>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
    </form>
  );
}
