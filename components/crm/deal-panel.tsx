'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { messengerLabel } from '@/lib/client-display';

/**
 * A deal's panel (docs/crm.md): its client, stage, variables (edited while the deal is open,
 * through the same operation as the client profile and the API's save_variables), its
 * submissions, and links to the client's profile and the conversations.
 */
export function DealPanel({
  projectId,
  dealId,
  onClose,
}: {
  projectId: number;
  dealId: number;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const deal = useQuery(trpc.crm.deal.queryOptions({ projectId, dealId }));
  const [values, setValues] = useState<Record<string, string>>({});
  const [newName, setNewName] = useState('');
  const [newValue, setNewValue] = useState('');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (deal.data) setValues(Object.fromEntries(deal.data.variables.map((v) => [v.name, v.value])));
  }, [deal.data]);
  const save = useMutation(
    trpc.clients.saveVariables.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        setNewName('');
        setNewValue('');
        await queryClient.invalidateQueries({ queryKey: trpc.crm.deal.queryKey({ projectId, dealId }) });
        await queryClient.invalidateQueries({ queryKey: trpc.crm.column.pathKey() });
      },
    }),
  );
  const d = deal.data;
  const open = d && !d.closedAt;
  const changed = d
    ? Object.fromEntries(
        Object.entries(values).filter(
          ([name, value]) => d.variables.find((v) => v.name === name)?.value !== value,
        ),
      )
    : {};
  if (newName.trim()) changed[newName.trim()] = newValue;
  return (
    <aside
      aria-label={`Deal #${dealId}`}
      className="fixed inset-y-0 right-0 z-30 flex w-full max-w-md flex-col border-l border-slate-200 bg-white shadow-xl"
    >
      <header className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
        <h2 className="font-semibold text-slate-900">Deal #{dealId}</h2>
        <Button variant="ghost" size="sm" aria-label="Close the deal panel" onClick={onClose}>
          <X className="size-4" aria-hidden />
        </Button>
      </header>
      <div className="flex-1 space-y-4 overflow-y-auto p-4 text-sm">
        {deal.error ? <Alert tone="error">{deal.error.message}</Alert> : null}
        {d ? (
          <>
            <dl className="grid grid-cols-[7rem_1fr] gap-y-1">
              <dt className="text-slate-500">Client</dt>
              <dd>
                {d.client.name || d.client.platformId} · {messengerLabel(d.client.clientType)}
              </dd>
              <dt className="text-slate-500">Stage</dt>
              <dd>
                {d.state ? `${d.state.funnel.name}: ${d.state.name}` : 'No stage'}
                {d.closedAt ? ` (closed ${new Date(d.closedAt).toLocaleString()})` : ''}
              </dd>
              <dt className="text-slate-500">Opened</dt>
              <dd>{new Date(d.createdAt).toLocaleString()}</dd>
            </dl>
            <div className="flex flex-wrap gap-3">
              <Link
                className="text-brand-700 hover:underline"
                href={`/projects/${projectId}/clients/${d.client.id}`}
              >
                Client profile and conversation
              </Link>
              <Link className="text-brand-700 hover:underline" href={`/projects/${projectId}/inbox`}>
                Conversations
              </Link>
            </div>
            <section className="space-y-2">
              <h3 className="font-medium text-slate-800">Variables</h3>
              {!open ? (
                <p className="text-xs text-slate-500">A closed deal's variables are kept as they were.</p>
              ) : null}
              {d.variables.length === 0 ? <p className="text-xs text-slate-500">No variables yet.</p> : null}
              {Object.entries(values).map(([name, value]) => (
                <div key={name} className="grid grid-cols-[7rem_1fr] items-center gap-2">
                  <span className="truncate font-mono text-xs text-slate-600">{name}</span>
                  <Input
                    aria-label={`Variable ${name}`}
                    value={value}
                    disabled={!open}
                    onChange={(e) => {
                      setSaved(false);
                      setValues({ ...values, [name]: e.target.value });
                    }}
                  />
                </div>
              ))}
              {open ? (
                <div className="grid grid-cols-[7rem_1fr] gap-2">
                  <Input
                    aria-label="New variable's name"
                    placeholder="name"
                    value={newName}
                    onChange={(e) => setNewName(e.target.value)}
                  />
                  <Input
                    aria-label="New variable's value"
                    placeholder="value"
                    value={newValue}
                    onChange={(e) => setNewValue(e.target.value)}
                  />
                </div>
              ) : null}
              {save.error ? <Alert tone="error">{save.error.message}</Alert> : null}
              {saved && !Object.keys(changed).length ? <Alert tone="success">Saved.</Alert> : null}
              {open ? (
                <Button
                  disabled={!Object.keys(changed).length || save.isPending}
                  onClick={() => save.mutate({ projectId, clientId: d.client.id, variables: changed })}
                >
                  Save variables
                </Button>
              ) : null}
            </section>
            <section className="space-y-1">
              <h3 className="font-medium text-slate-800">Submissions</h3>
              {d.submissions.length === 0 ? <p className="text-xs text-slate-500">None yet.</p> : null}
              <ul className="space-y-1">
                {d.submissions.map((s) => (
                  <li key={s.id} className="text-xs text-slate-700">
                    #{s.id} from block {s.blockId} ({s.kept ? 'yellow' : 'red'}) ·{' '}
                    {new Date(s.createdAt).toLocaleString()}
                  </li>
                ))}
              </ul>
              <Link
                className="text-xs text-brand-700 hover:underline"
                href={`/projects/${projectId}/deals/submissions`}
              >
                All submissions
              </Link>
            </section>
          </>
        ) : null}
      </div>
    </aside>
  );
}
