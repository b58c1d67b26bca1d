'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { Plus, X } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input, Select } from '@/components/ui/input';
import { useModal } from '@/components/ui/use-modal';

interface Stage {
  id: number;
  name: string;
  kind: string;
}
interface Chosen {
  id: number;
  displayName: string;
  messenger: string;
}

/** Clients shown for a search: enough to pick from, few enough to read. */
const RESULTS = 8;

/**
 * A deal made by hand (docs/crm.md): a client found by name, phone or e-mail, an open stage of
 * the funnel on screen, and variables (the funnel's card variables offered first). `crm.createDeal`
 * refuses a client whose open deal is on a board already, naming it.
 */
export function NewDealDialog({
  projectId,
  funnel,
  onClose,
  onCreated,
}: {
  projectId: number;
  funnel: { name: string; stages: Stage[]; cardVariables: string[] };
  onClose: () => void;
  onCreated: (deal: { dealId: number; client: string; stateId: number; stage: string }) => void;
}) {
  const trpc = useTRPC();
  const { dialog, titleId } = useModal();
  const openStages = funnel.stages.filter((s) => s.kind === 'open');
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [client, setClient] = useState<Chosen | null>(null);
  const [stateId, setStateId] = useState(openStages[0]?.id ?? 0);
  const [variables, setVariables] = useState(() =>
    (funnel.cardVariables.length ? funnel.cardVariables : ['']).map((name) => ({ name, value: '' })),
  );
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const found = useQuery({
    ...trpc.clients.search.queryOptions({ projectId, query, limit: RESULTS, sort: 'lastMessage' }),
    enabled: !client && query.length > 0,
  });
  const create = useMutation(trpc.crm.createDeal.mutationOptions());
  const stage = openStages.find((s) => s.id === stateId);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!client || !stage) return;
    create.mutate(
      {
        projectId,
        clientId: client.id,
        stateId: stage.id,
        variables: variables.filter((v) => v.name.trim() && v.value !== ''),
      },
      {
        onSuccess: (deal) =>
          onCreated({
            dealId: deal.dealId,
            client: client.displayName,
            stateId: stage.id,
            stage: stage.name,
          }),
      },
    );
  };
  const setVariable = (i: number, change: Partial<{ name: string; value: string }>) =>
    setVariables((rows) => rows.map((row, at) => (at === i ? { ...row, ...change } : row)));

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={onClose}
      className="m-auto w-[32rem] max-w-[94vw] rounded-lg p-5 shadow-xl backdrop:bg-slate-900/30"
    >
      <form onSubmit={onSubmit} className="flex flex-col gap-4 text-sm">
        <div className="flex items-start justify-between gap-2">
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            New deal in {funnel.name}
          </h2>
          <Button variant="ghost" size="sm" aria-label="Close" onClick={onClose}>
            <X className="size-4" aria-hidden />
          </Button>
        </div>

        <fieldset className="space-y-1.5">
          <legend className="mb-1 font-medium text-slate-800">Client</legend>
          {client ? (
            <div className="flex items-center justify-between gap-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
              <span data-testid="new-deal-client" className="truncate">
                <span className="font-medium text-slate-900">{client.displayName}</span>
                <span className="text-slate-500">
                  {' '}
                  · {client.messenger} · #{client.id}
                </span>
              </span>
              <Button variant="ghost" size="sm" onClick={() => setClient(null)}>
                Change
              </Button>
            </div>
          ) : (
            <>
              <Input
                aria-label="Find a client"
                placeholder="Name, phone, e-mail or messenger id"
                value={text}
                autoFocus
                onChange={(e) => setText(e.target.value)}
              />
              {query && found.data ? (
                found.data.clients.length ? (
                  <ul
                    aria-label="Matching clients"
                    className="max-h-56 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200"
                  >
                    {found.data.clients.map((c) => (
                      <li key={c.id}>
                        <button
                          type="button"
                          className="flex w-full items-baseline justify-between gap-2 px-3 py-1.5 text-left hover:bg-slate-50"
                          onClick={() =>
                            setClient({ id: c.id, displayName: c.displayName, messenger: c.messenger })
                          }
                        >
                          <span className="truncate font-medium text-slate-900">{c.displayName}</span>
                          <span className="shrink-0 truncate text-xs text-slate-500">
                            {[c.messenger, c.phone || c.email, `#${c.id}`].filter(Boolean).join(' · ')}
                          </span>
                        </button>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="text-slate-500">No client matches “{query}”.</p>
                )
              ) : (
                <p className="text-slate-500">
                  Type to search the project’s clients. Someone new? Add them to a list by CSV import first.
                </p>
              )}
            </>
          )}
        </fieldset>

        <div className="space-y-1.5">
          <label htmlFor={`${titleId}-stage`} className="block font-medium text-slate-800">
            Stage
          </label>
          <Select
            id={`${titleId}-stage`}
            value={stateId}
            onChange={(e) => setStateId(Number(e.target.value))}
          >
            {openStages.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </Select>
        </div>

        <fieldset className="space-y-1.5">
          <legend className="mb-1 font-medium text-slate-800">Deal variables</legend>
          {variables.map((v, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id; they are edited in place.
            <div key={i} className="flex gap-2">
              <Input
                aria-label={`Variable ${i + 1} name`}
                placeholder="name, e.g. amount"
                value={v.name}
                onChange={(e) => setVariable(i, { name: e.target.value })}
              />
              <Input
                aria-label={`Variable ${i + 1} value`}
                placeholder="value"
                value={v.value}
                onChange={(e) => setVariable(i, { value: e.target.value })}
              />
            </div>
          ))}
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setVariables((rows) => [...rows, { name: '', value: '' }])}
          >
            <Plus className="size-4" aria-hidden /> Add a variable
          </Button>
        </fieldset>

        {create.error ? <Alert tone="error">{create.error.message}</Alert> : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!client || !stage || create.isPending}>
            Create deal
          </Button>
        </div>
      </form>
    </dialog>
  );
}
