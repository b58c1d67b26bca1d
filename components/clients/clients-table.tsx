'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input, Select } from '@/components/ui/input';
import { Pager } from '@/components/ui/pager';
import { ListActions, type Selection } from './list-actions';

/** The search box's limit, the same as the server's (server/contacts/client-search.ts). */
const MAX_TEXT = 200;
const PAGE_SIZE = 50;

const SORTS = {
  'created:desc': 'Newest first',
  'created:asc': 'Oldest first',
  'lastMessage:desc': 'Last message',
  'name:asc': 'Name A–Z',
} as const;
type SortValue = keyof typeof SORTS;

interface Filters {
  query: string;
  variableName: string;
  variableValue: string;
  clientType: string;
  /** `in:<id>` (members of a list), `out:<id>` (not members), or empty. */
  list: string;
  crmStateId: string;
  tag: string;
  /** A member's id, `none` for unassigned clients, or empty for everyone. */
  member: string;
}
const NO_FILTERS: Filters = {
  query: '',
  variableName: '',
  variableValue: '',
  clientType: '',
  list: '',
  crmStateId: '',
  tag: '',
  member: '',
};

const dateTime = (d: Date | string | null) => (d ? new Date(d).toLocaleString() : '—');
const optionalNumber = (s: string) => (s ? Number(s) : undefined);
const optionalText = (s: string) => s.trim() || undefined;
const listOf = (value: string, mode: 'in' | 'out') =>
  value.startsWith(`${mode}:`) ? Number(value.slice(mode.length + 1)) : undefined;

/** The server's reading of the applied filters (the search, the list actions, the export). */
function filterInput(filters: Filters) {
  return {
    query: optionalText(filters.query),
    variableName: optionalText(filters.variableName),
    variableValue: optionalText(filters.variableValue),
    clientType: optionalNumber(filters.clientType),
    listId: listOf(filters.list, 'in'),
    notListId: listOf(filters.list, 'out'),
    crmStateId: optionalNumber(filters.crmStateId),
    tag: filters.tag || undefined,
    assignedMemberId: filters.member === 'none' ? null : optionalNumber(filters.member),
  };
}

/** The export's address: the same filter as query parameters. */
function exportHref(projectId: number, filters: Filters) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filterInput(filters)))
    if (value !== undefined) params.set(key, value === null ? 'none' : String(value));
  return `/api/projects/${projectId}/clients/export?${params}`;
}

export function ClientsTable({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  // `?list=<id>` (the Lists page's links) opens the table on a list's members.
  const initialList = useSearchParams().get('list');
  const initial = /^\d+$/.test(initialList ?? '') ? { ...NO_FILTERS, list: `in:${initialList}` } : NO_FILTERS;
  const [draft, setDraft] = useState<Filters>(initial);
  const [filters, setFilters] = useState<Filters>(initial);
  const [selection, setSelection] = useState<Selection>({ kind: 'ids', ids: new Set() });
  const [sort, setSort] = useState<SortValue>('created:desc');
  // Cursors of the pages seen so far: the last is the current page, popping one goes back.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [sortField, direction] = sort.split(':') as ['created' | 'lastMessage' | 'name', 'asc' | 'desc'];
  const options = useQuery(trpc.clients.filterOptions.queryOptions({ projectId }));
  const search = useQuery({
    ...trpc.clients.search.queryOptions({
      projectId,
      ...filterInput(filters),
      sort: sortField,
      direction,
      limit: PAGE_SIZE,
      cursor: cursors.at(-1),
    }),
    placeholderData: keepPreviousData,
  });
  const nextCursor = search.data?.nextCursor;

  const apply = (next: Filters) => {
    setFilters(next);
    setCursors([undefined]);
    // A selection belongs to the filter it was made under.
    setSelection({ kind: 'ids', ids: new Set() });
  };
  const set = (key: keyof Filters, value: string, now = false) => {
    const next = { ...draft, [key]: value };
    setDraft(next);
    // Menus apply at once; the text boxes when the search is submitted.
    if (now) apply(next);
  };
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    apply(draft);
  };
  const filtered = Object.values(filters).some(Boolean);
  const rows = search.data?.clients ?? [];
  const opts = options.data;
  const pageIds = rows.map((c) => c.id);
  const pageSelected =
    selection.kind === 'all' || (pageIds.length > 0 && pageIds.every((id) => selection.ids.has(id)));
  const toggle = (id: number) => {
    if (selection.kind === 'all') return;
    const ids = new Set(selection.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    setSelection({ kind: 'ids', ids });
  };
  const togglePage = () => {
    if (pageSelected) return setSelection({ kind: 'ids', ids: new Set() });
    setSelection({
      kind: 'ids',
      ids: new Set([...(selection.kind === 'ids' ? selection.ids : []), ...pageIds]),
    });
  };

  return (
    <main className="space-y-4 p-4 sm:p-6">
      <div className="flex items-center justify-between gap-2">
        <h1 className="text-lg font-semibold text-slate-900">Clients</h1>
        <a
          className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-2.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
          href={exportHref(projectId, filters)}
          download
        >
          Export CSV
        </a>
      </div>
      <form
        // On a phone: the search on a row of its own, the variable filter and the buttons in pairs.
        className="grid grid-cols-2 gap-2 sm:grid-cols-[minmax(0,3fr)_minmax(0,1fr)_minmax(0,1fr)_auto_auto]"
        onSubmit={onSearch}
        aria-label="Search clients"
      >
        <Input
          className="col-span-2 sm:col-span-1"
          aria-label="Search by name, phone, e-mail or platform id"
          placeholder="Name, phone, e-mail or platform id"
          maxLength={MAX_TEXT}
          value={draft.query}
          onChange={(e) => set('query', e.target.value)}
        />
        <Input
          aria-label="Variable name"
          placeholder="Variable"
          maxLength={MAX_TEXT}
          value={draft.variableName}
          onChange={(e) => set('variableName', e.target.value)}
        />
        <Input
          aria-label="Variable value"
          placeholder="contains…"
          maxLength={MAX_TEXT}
          value={draft.variableValue}
          onChange={(e) => set('variableValue', e.target.value)}
        />
        <Button type="submit">Search</Button>
        {filtered ? (
          <Button
            variant="ghost"
            onClick={() => {
              setDraft(NO_FILTERS);
              apply(NO_FILTERS);
            }}
          >
            Clear
          </Button>
        ) : null}
      </form>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
        <Select
          aria-label="Messenger"
          value={draft.clientType}
          onChange={(e) => set('clientType', e.target.value, true)}
        >
          <option value="">All messengers</option>
          {opts?.messengers.map((m) => (
            <option key={m.clientType} value={m.clientType}>
              {m.label}
            </option>
          ))}
        </Select>
        <Select aria-label="List" value={draft.list} onChange={(e) => set('list', e.target.value, true)}>
          <option value="">All lists</option>
          {opts?.lists.length ? (
            <>
              <optgroup label="In list">
                {opts.lists.map((l) => (
                  <option key={l.id} value={`in:${l.id}`}>
                    In {l.name} (id {l.id})
                  </option>
                ))}
              </optgroup>
              <optgroup label="Not in list">
                {opts.lists.map((l) => (
                  <option key={l.id} value={`out:${l.id}`}>
                    Not in {l.name} (id {l.id})
                  </option>
                ))}
              </optgroup>
            </>
          ) : null}
        </Select>
        <Select
          aria-label="CRM state"
          value={draft.crmStateId}
          onChange={(e) => set('crmStateId', e.target.value, true)}
        >
          <option value="">All CRM states</option>
          {opts?.crmStates.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </Select>
        <Select aria-label="Tag" value={draft.tag} onChange={(e) => set('tag', e.target.value, true)}>
          <option value="">All tags</option>
          {opts?.tags.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Assigned member"
          value={draft.member}
          onChange={(e) => set('member', e.target.value, true)}
        >
          <option value="">Any member</option>
          <option value="none">Unassigned</option>
          {opts?.members.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Sort"
          value={sort}
          onChange={(e) => {
            setSort(e.target.value as SortValue);
            setCursors([undefined]);
          }}
        >
          {Object.entries(SORTS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </div>
      {search.error ? <Alert tone="error">{search.error.message}</Alert> : null}
      <ListActions
        projectId={projectId}
        filter={filterInput(filters)}
        lists={opts?.lists ?? []}
        selection={selection}
        pageSelected={pageSelected && rows.length > 0}
        onSelect={setSelection}
      />
      {search.isSuccess && rows.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-8 text-center text-sm text-slate-500">
          {filtered
            ? 'No clients match this search.'
            : 'No clients yet: they appear when someone writes to the bot, or in the simulator.'}
        </p>
      ) : null}
      {rows.length ? (
        <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs text-slate-500 uppercase">
              <tr>
                <th className="w-8 px-3 py-2">
                  <input
                    type="checkbox"
                    aria-label="Select the clients on this page"
                    className="size-4 align-middle"
                    checked={pageSelected}
                    onChange={togglePage}
                  />
                </th>
                {[
                  'Name',
                  'Messenger',
                  'Platform id',
                  'Phone',
                  'E-mail',
                  'Block',
                  'Assigned',
                  'Tag',
                  'Last message',
                  'Created',
                ].map((h) => (
                  <th key={h} className="whitespace-nowrap px-3 py-2 font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((c) => (
                <tr
                  key={c.id}
                  className={selection.kind === 'all' || selection.ids.has(c.id) ? 'bg-brand-50' : undefined}
                >
                  <td className="px-3 py-2">
                    <input
                      type="checkbox"
                      aria-label={`Select ${c.displayName}`}
                      className="size-4 align-middle"
                      checked={selection.kind === 'all' || selection.ids.has(c.id)}
                      disabled={selection.kind === 'all'}
                      onChange={() => toggle(c.id)}
                    />
                  </td>
                  <td className="max-w-48 truncate px-3 py-2 font-medium text-slate-900">
                    <Link href={`/projects/${projectId}/clients/${c.id}`} className="hover:underline">
                      {c.displayName}
                    </Link>
                  </td>
                  <td className="px-3 py-2">{c.messenger}</td>
                  <td className="max-w-40 truncate px-3 py-2 font-mono text-xs">{c.platformId}</td>
                  <td className="whitespace-nowrap px-3 py-2">{c.phone}</td>
                  <td className="max-w-48 truncate px-3 py-2">{c.email}</td>
                  <td className="max-w-40 truncate px-3 py-2">
                    {c.currentBlockId === null ? '—' : c.currentBlockName || `Block ${c.currentBlockId}`}
                  </td>
                  <td className="max-w-40 truncate px-3 py-2">
                    {c.assignedMember ? c.assignedMember.name || c.assignedMember.email : '—'}
                  </td>
                  <td className="px-3 py-2">{c.tag ? <Badge>{c.tag}</Badge> : null}</td>
                  <td className="whitespace-nowrap px-3 py-2">{dateTime(c.lastMessageAt)}</td>
                  <td className="whitespace-nowrap px-3 py-2">{dateTime(c.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager
        label={`Page ${cursors.length}`}
        previous={cursors.length > 1 ? () => setCursors(cursors.slice(0, -1)) : null}
        next={nextCursor ? () => setCursors([...cursors, nextCursor]) : null}
        busy={search.isFetching}
      />
    </main>
  );
}
