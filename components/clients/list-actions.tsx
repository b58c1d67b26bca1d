'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/input';
import type { ClientFilterInput } from '@/server/contacts/client-search';

/** Rows picked by hand (ids), or every client matching the applied filter (chosen by the server). */
export type Selection = { kind: 'ids'; ids: Set<number> } | { kind: 'all' };

const n = (x: number) => x.toLocaleString();

/**
 * The Clients table's selection bar: "select all N matching", and add the selection to a list
 * or remove it from one. "All matching" sends the filter, never the ids.
 */
export function ListActions({
  projectId,
  filter,
  lists,
  selection,
  pageSelected,
  onSelect,
}: {
  projectId: number;
  filter: ClientFilterInput;
  lists: { id: number; name: string }[];
  selection: Selection;
  pageSelected: boolean;
  onSelect(selection: Selection): void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [listId, setListId] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const count = useQuery({
    ...trpc.lists.countMatching.queryOptions({ projectId, filter }),
    enabled: pageSelected,
  });
  const done = (verb: string) => async (result: { changed: number }) => {
    const name = lists.find((l) => l.id === Number(listId))?.name ?? `list ${listId}`;
    setNotice(`${n(result.changed)} client${result.changed === 1 ? '' : 's'} ${verb} “${name}”.`);
    onSelect({ kind: 'ids', ids: new Set() });
    await queryClient.invalidateQueries({ queryKey: trpc.clients.search.queryKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.lists.all.queryKey() });
  };
  const opts = (verb: string) => ({ onSuccess: done(verb), onMutate: () => setNotice(null) });
  const addIds = useMutation(trpc.lists.addClients.mutationOptions(opts('added to')));
  const removeIds = useMutation(trpc.lists.removeClients.mutationOptions(opts('removed from')));
  const addAll = useMutation(trpc.lists.addMatching.mutationOptions(opts('added to')));
  const removeAll = useMutation(trpc.lists.removeMatching.mutationOptions(opts('removed from')));
  const pending = addIds.isPending || removeIds.isPending || addAll.isPending || removeAll.isPending;
  const error = addIds.error ?? removeIds.error ?? addAll.error ?? removeAll.error;
  const selected = selection.kind === 'all' ? (count.data ?? 0) : selection.ids.size;

  const run = (add: boolean) => {
    const list = Number(listId);
    if (!list) return;
    if (selection.kind === 'all') (add ? addAll : removeAll).mutate({ projectId, listId: list, filter });
    else (add ? addIds : removeIds).mutate({ projectId, listId: list, clientIds: [...selection.ids] });
  };

  if (!selected && selection.kind === 'ids') return notice ? <Alert tone="success">{notice}</Alert> : null;
  return (
    <section
      aria-label="Selected clients"
      className="flex flex-wrap items-center gap-2 rounded-md border border-brand-100 bg-brand-50 px-3 py-2 text-sm"
    >
      <span className="font-medium text-slate-800" data-testid="selected-count">
        {selection.kind === 'all'
          ? `All ${n(selected)} matching clients selected`
          : `${n(selected)} selected`}
      </span>
      {selection.kind === 'ids' && pageSelected && count.data && count.data > selection.ids.size ? (
        <Button variant="ghost" size="sm" onClick={() => onSelect({ kind: 'all' })}>
          Select all {n(count.data)} matching
        </Button>
      ) : null}
      <Button variant="ghost" size="sm" onClick={() => onSelect({ kind: 'ids', ids: new Set() })}>
        Clear
      </Button>
      <div className="ml-auto flex flex-wrap items-center gap-2">
        {lists.length ? (
          <>
            <div className="w-56 max-w-full">
              <Select
                aria-label="List for the selected clients"
                value={listId}
                onChange={(e) => setListId(e.target.value)}
              >
                <option value="">Choose a list…</option>
                {lists.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name} (id {l.id})
                  </option>
                ))}
              </Select>
            </div>
            <Button size="sm" className="h-9" disabled={!listId || pending} onClick={() => run(true)}>
              Add to list
            </Button>
            <Button
              variant="secondary"
              size="sm"
              className="h-9"
              disabled={!listId || pending}
              onClick={() => run(false)}
            >
              Remove from list
            </Button>
          </>
        ) : (
          <Link href={`/projects/${projectId}/clients/lists`} className="text-brand-700 underline">
            Create a list to add them to
          </Link>
        )}
      </div>
      {error ? (
        <div className="basis-full">
          <Alert tone="error">{error.message}</Alert>
        </div>
      ) : null}
    </section>
  );
}
