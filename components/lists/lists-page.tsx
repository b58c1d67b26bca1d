'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Input } from '@/components/ui/input';
import { ListImportPanel } from './list-import-panel';

const MAX_NAME = 100;
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * The project's client lists (docs/lists.md): create, rename, delete; member counts; each list's
 * id (the API's list_id) to copy; import members from CSV and export them.
 */
export function ListsPage({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const lists = useQuery(trpc.lists.all.queryOptions({ projectId }));
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ id: number; name: string } | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [importing, setImporting] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.lists.all.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.clients.filterOptions.queryKey() }),
    ]);
  const create = useMutation(
    trpc.lists.create.mutationOptions({
      onSuccess: async (list) => {
        setName('');
        setNotice(`List "${list.name}" created (id ${list.id}).`);
        await refresh();
      },
    }),
  );
  const rename = useMutation(
    trpc.lists.rename.mutationOptions({
      onSuccess: async () => {
        setEditing(null);
        await refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.lists.delete.mutationOptions({
      onSuccess: async (result, input) => {
        setDeleting(null);
        setNotice(
          `List ${input.listId} deleted; its ${plural(result.members, 'client')} stay in the project.`,
        );
        await refresh();
      },
    }),
  );
  const onCreate = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    create.mutate({ projectId, name });
  };
  const error = create.error ?? rename.error ?? remove.error ?? lists.error;
  const rows = lists.data ?? [];
  const base = `/projects/${projectId}`;

  return (
    <main className="space-y-4 p-4 sm:p-6">
      <div>
        <h1 className="text-lg font-semibold text-slate-900">Lists</h1>
        <p className="text-sm text-slate-500">
          Group clients for broadcasts, filters and the bot's “Add to lists” action. A list's id is the API's{' '}
          <code className="font-mono">list_id</code>.
        </p>
      </div>
      <form onSubmit={onCreate} className="flex max-w-xl gap-2" aria-label="New list">
        <Input
          aria-label="New list name"
          placeholder="New list name, e.g. Newsletter"
          maxLength={MAX_NAME}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <Button type="submit" className="shrink-0" disabled={!name.trim() || create.isPending}>
          Create list
        </Button>
      </form>
      {error ? <Alert tone="error">{error.message}</Alert> : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {lists.isSuccess && rows.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-8 text-center text-sm text-slate-500">
          No lists yet. Create one above, then add clients from the Clients table or import a CSV.
        </p>
      ) : null}
      {rows.length ? (
        <ul className="divide-y divide-slate-100 rounded-md border border-slate-200 bg-white">
          {rows.map((list) => (
            <li key={list.id} className="space-y-3 p-3" aria-label={`List ${list.name}`}>
              <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
                {editing?.id === list.id ? (
                  <form
                    className="flex min-w-0 flex-1 gap-2"
                    onSubmit={(e) => {
                      e.preventDefault();
                      rename.mutate({ projectId, listId: list.id, name: editing.name });
                    }}
                  >
                    <Input
                      aria-label="List name"
                      maxLength={MAX_NAME}
                      value={editing.name}
                      autoFocus
                      onChange={(e) => setEditing({ id: list.id, name: e.target.value })}
                    />
                    <Button type="submit" size="sm" className="h-9" disabled={rename.isPending}>
                      Save
                    </Button>
                    <Button variant="ghost" size="sm" className="h-9" onClick={() => setEditing(null)}>
                      Cancel
                    </Button>
                  </form>
                ) : (
                  <div className="min-w-0 flex-1">
                    <Link
                      href={`${base}/clients?list=${list.id}`}
                      className="block truncate font-medium text-slate-900 hover:underline"
                    >
                      {list.name}
                    </Link>
                    <p className="text-sm text-slate-500">
                      <span data-testid="member-count">{plural(list.members, 'member')}</span> · id{' '}
                      <span className="font-mono">{list.id}</span>
                    </p>
                  </div>
                )}
                <div className="flex flex-wrap items-center gap-2">
                  <CopyButton value={String(list.id)} label="Copy id" />
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-expanded={importing === list.id}
                    onClick={() => setImporting(importing === list.id ? null : list.id)}
                  >
                    Import CSV
                  </Button>
                  <a
                    className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-2.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
                    href={`/api/projects/${projectId}/clients/export?listId=${list.id}`}
                    download
                  >
                    Export CSV
                  </a>
                  {editing?.id === list.id ? null : (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setEditing({ id: list.id, name: list.name })}
                    >
                      Rename
                    </Button>
                  )}
                  <Button variant="ghost" size="sm" onClick={() => setDeleting(list.id)}>
                    Delete
                  </Button>
                </div>
              </div>
              {deleting === list.id ? (
                <div
                  role="alertdialog"
                  aria-label={`Delete list ${list.name}`}
                  className="flex flex-wrap items-center gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
                >
                  <span className="flex-1">
                    Delete “{list.name}”?{' '}
                    {list.members
                      ? `It has ${plural(list.members, 'member')}; they stay in the project, but lose this membership.`
                      : 'It has no members.'}{' '}
                    Bots, broadcasts and API calls using list {list.id} will no longer find it.
                  </span>
                  <Button
                    variant="danger"
                    size="sm"
                    disabled={remove.isPending}
                    onClick={() => remove.mutate({ projectId, listId: list.id })}
                  >
                    Delete list
                  </Button>
                  <Button variant="secondary" size="sm" onClick={() => setDeleting(null)}>
                    Keep it
                  </Button>
                </div>
              ) : null}
              {importing === list.id ? (
                <ListImportPanel
                  projectId={projectId}
                  list={list}
                  onClose={() => setImporting(null)}
                  onImported={async (added, created) => {
                    setImporting(null);
                    setNotice(
                      `${plural(added, 'client')} added to “${list.name}”${created ? `, ${plural(created, 'new client')} created` : ''}.`,
                    );
                    await refresh();
                  }}
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </main>
  );
}
