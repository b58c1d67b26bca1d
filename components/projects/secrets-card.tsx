'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { formErrors } from '@/components/ui/form-errors';
import { Input, Select } from '@/components/ui/input';

/** A constant's name that looks like it holds a credential: offered first to move. */
const CREDENTIAL = /token|key|secret|password|passwd|auth|bearer/i;

/**
 * Settings, Secrets (docs/secrets.md): write-only. A value is typed once and never shown again;
 * it can be replaced or deleted. Requests refer to a secret as `#{secret.NAME}`.
 */
export function SecretsCard({ projectId, constants }: { projectId: number; constants: string[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const secrets = useQuery(trpc.secrets.list.queryOptions({ projectId }));
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.secrets.list.queryKey({ projectId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.project.get.queryKey({ projectId }) }),
    ]);
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [replacing, setReplacing] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const set = useMutation(
    trpc.secrets.set.mutationOptions({
      onSuccess: ({ name }) => {
        setSaved(`Secret ${name} saved. Its value will not be shown again.`);
        setName('');
        setValue('');
        setReplacing(null);
        return refresh();
      },
    }),
  );
  const errors = formErrors(set.error, '', ['name', 'value']);
  const remove = useMutation(trpc.secrets.delete.mutationOptions({ onSuccess: refresh }));
  const move = useMutation(trpc.secrets.moveConstant.mutationOptions({ onSuccess: refresh }));
  const [moving, setMoving] = useState('');
  const movable = [...constants].sort((a, b) => Number(CREDENTIAL.test(b)) - Number(CREDENTIAL.test(a)));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(null);
    set.mutate({ projectId, name: replacing ?? name, value });
  };

  return (
    <Card>
      <CardTitle description="API keys and tokens your bot's requests and AI providers use. A value is encrypted, never shown again, and never written to the history, the logs or the webhook: a reply that repeats it shows ••••.">
        Secrets
      </CardTitle>
      {secrets.data?.length === 0 ? (
        <p className="mb-3 text-sm text-slate-500">
          No secrets yet. Add one, then write{' '}
          <code className="rounded bg-slate-100 px-1">#{'{secret.NAME}'}</code> in a block request's URL,
          headers or JSON parameters, or in a requests_* call.
        </p>
      ) : null}
      <ul className="mb-3 divide-y divide-slate-100">
        {secrets.data?.map((s) => (
          <li key={s.name} className="flex flex-wrap items-center gap-2 py-2">
            <code className="font-medium text-slate-900">#{`{secret.${s.name}}`}</code>
            <span className="text-xs text-slate-500">changed {new Date(s.updatedAt).toLocaleString()}</span>
            <span className="ml-auto flex gap-1">
              <Button size="sm" variant="secondary" onClick={() => setReplacing(s.name)}>
                Replace
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  if (
                    window.confirm(
                      `Delete the secret ${s.name}? Requests that use it will fail until it is added again.`,
                    )
                  )
                    remove.mutate({ projectId, name: s.name });
                }}
              >
                Delete
              </Button>
            </span>
          </li>
        ))}
      </ul>
      <form
        onSubmit={submit}
        className="space-y-3"
        aria-label={replacing ? `Replace ${replacing}` : 'Add a secret'}
      >
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            id="secret-name"
            error={errors.of('name')}
            label={replacing ? 'Secret' : 'Name'}
            hint="Letters, digits and _, e.g. CRM_TOKEN."
          >
            <Input
              id="secret-name"
              value={replacing ?? name}
              disabled={replacing !== null}
              onChange={(e) => setName(e.target.value)}
            />
          </Field>
          <Field id="secret-value" error={errors.of('value')} label={replacing ? 'New value' : 'Value'}>
            <Input
              id="secret-value"
              type="password"
              autoComplete="off"
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          </Field>
        </div>
        {errors.rest ? <Alert tone="error">{errors.rest.message}</Alert> : null}
        {saved ? <Alert tone="success">{saved}</Alert> : null}
        <div className="flex gap-2">
          <Button type="submit" disabled={set.isPending || !value}>
            {replacing ? 'Replace value' : 'Add secret'}
          </Button>
          {replacing ? (
            <Button variant="ghost" onClick={() => setReplacing(null)}>
              Cancel
            </Button>
          ) : null}
        </div>
      </form>
      {movable.length ? (
        <div className="mt-4 border-t border-slate-100 pt-4">
          <p className="mb-2 text-sm text-slate-700">
            A constant that holds a credential is shown to every admin and exported with the project. Move it
            to secrets: its value is kept, the constant goes, and the draft's requests that used{' '}
            <code>#{'{project.NAME}'}</code> use the secret.
          </p>
          <div className="flex items-end gap-2">
            <Field id="move-constant" label="Constant">
              <Select id="move-constant" value={moving} onChange={(e) => setMoving(e.target.value)}>
                <option value="">Choose a constant…</option>
                {movable.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </Select>
            </Field>
            <Button
              variant="secondary"
              disabled={!moving || move.isPending}
              onClick={() => move.mutate({ projectId, name: moving })}
            >
              Move to secrets
            </Button>
          </div>
          {move.error ? <Alert tone="error">{move.error.message}</Alert> : null}
          {move.data ? (
            <Alert tone="success">
              {`${move.data.name} is a secret now; ${move.data.requestsRewritten} request${move.data.requestsRewritten === 1 ? '' : 's'} of the draft use it (publish to apply).`}
              {move.data.stillReadIn.length
                ? ` Still read as project.${move.data.name} (now empty) in ${move.data.stillReadIn.join(', ')}: secrets only go into requests.`
                : ''}
            </Alert>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}
