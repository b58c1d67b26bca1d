'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { exampleApiCall } from '@/lib/api-call';

const dateTime = (d: Date | string | null) => (d ? new Date(d).toLocaleString() : 'never');

/** `baseUrl`: this server's address (BLOCKBOT_BASE_URL), for the example call. */
export function ApiKeys({ projectId, baseUrl }: { projectId: number; baseUrl: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.apiKey.list.queryOptions({ projectId }));
  const invalidate = () =>
    queryClient.invalidateQueries({ queryKey: trpc.apiKey.list.queryKey({ projectId }) });
  const [name, setName] = useState('');
  const [canDeleteClients, setCanDeleteClients] = useState(false);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const create = useMutation(
    trpc.apiKey.create.mutationOptions({
      onSuccess: (key) => {
        setCreated({ name: key.name, key: key.key });
        setName('');
        setCanDeleteClients(false);
        return invalidate();
      },
    }),
  );
  const revoke = useMutation(trpc.apiKey.revoke.mutationOptions({ onSuccess: invalidate }));
  // The key is known only right after its creation; later, the placeholder stands for it.
  const exampleCall = exampleApiCall(baseUrl, created?.key);

  function onCreate(event: FormEvent) {
    event.preventDefault();
    setCreated(null);
    create.mutate({ projectId, name, canDeleteClients });
  }

  if (keys.error)
    return (
      <div className="p-6">
        <Alert tone="error">{keys.error.message}</Alert>
      </div>
    );

  return (
    <main className="mx-auto max-w-3xl space-y-6 p-6">
      <Card>
        <CardTitle description="Integrators call /api/{api_key}/{action} with a key. A key is shown once: copy it now.">
          Create an API key
        </CardTitle>
        <form className="space-y-3" onSubmit={onCreate}>
          <Field id="key-name" label="Name">
            <Input
              id="key-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="CRM integration"
            />
          </Field>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={canDeleteClients}
              onChange={(e) => setCanDeleteClients(e.target.checked)}
            />
            Allowed to delete clients
          </label>
          <Button type="submit" disabled={create.isPending}>
            Create key
          </Button>
        </form>
        {create.error ? (
          <div className="mt-3">
            <Alert tone="error">{create.error.message}</Alert>
          </div>
        ) : null}
        {created ? (
          <div
            className="mt-4 space-y-2 rounded-md border border-emerald-200 bg-emerald-50 p-3"
            data-testid="new-key"
          >
            <p className="text-sm text-emerald-900">
              Key <strong>{created.name}</strong> created. It will not be shown again.
            </p>
            <div className="flex items-center gap-2">
              <code
                className="flex-1 overflow-x-auto rounded bg-white px-2 py-1 text-sm"
                data-testid="new-key-value"
              >
                {created.key}
              </code>
              <CopyButton value={created.key} />
            </div>
          </div>
        ) : null}
      </Card>
      <Card>
        <CardTitle
          description={
            created
              ? `With the key ${created.name} filled in: it lists the bot's blocks and changes nothing.`
              : "Put one of your keys in place of YOUR_API_KEY: it lists the bot's blocks and changes nothing."
          }
        >
          Try the API
        </CardTitle>
        <div className="flex items-center gap-2">
          <code
            className="flex-1 overflow-x-auto whitespace-nowrap rounded bg-slate-100 px-2 py-1 text-sm"
            data-testid="example-call"
          >
            {exampleCall}
          </code>
          <CopyButton value={exampleCall} label="Copy call" />
        </div>
        <p className="mt-3 text-sm text-slate-600">
          Every action, its parameters and an example each:{' '}
          <Link href="/docs/api" target="_blank" className="font-medium text-brand-700 hover:underline">
            API reference
          </Link>
          .
        </p>
      </Card>
      <Card>
        <CardTitle>Keys</CardTitle>
        {keys.data?.length === 0 ? <p className="text-sm text-slate-500">No keys yet.</p> : null}
        <table className={cn('w-full text-left text-sm', keys.data?.length === 0 && 'hidden')}>
          <thead className="text-xs text-slate-500 uppercase">
            <tr>
              <th className="py-1">Name</th>
              <th>Key</th>
              <th>Created</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {keys.data?.map((key) => (
              <tr key={key.id} data-testid="api-key-row">
                <td className="py-2">
                  {key.name}{' '}
                  {key.canDeleteClients ? <Badge className="ml-1">can delete clients</Badge> : null}
                </td>
                <td className="font-mono text-xs">{key.prefix}…</td>
                <td>{dateTime(key.createdAt)}</td>
                <td>{dateTime(key.lastUsedAt)}</td>
                <td className="text-right">
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => {
                      if (
                        confirm(`Revoke the key "${key.name}"? Integrations using it stop working at once.`)
                      ) {
                        revoke.mutate({ projectId, keyId: key.id });
                      }
                    }}
                  >
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </main>
  );
}
