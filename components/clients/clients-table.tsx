'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input, Select } from '@/components/ui/input';

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
  listId: string;
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
  listId: '',
  crmStateId: '',
  tag: '',
  member: '',
};

const dateTime = (d: Date | string | null) => (d ? new Date(d).toLocaleString() : '—');
const optionalNumber = (s: string) => (s ? Number(s) : undefined);
const optionalText = (s: string) => s.trim() || undefined;

export function ClientsTable({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [sort, setSort] = useState<SortValue>('created:desc');
  // Cursors of the pages seen so far: the last is the current page, popping one goes back.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [sortField, direction] = sort.split(':') as ['created' | 'lastMessage' | 'name', 'asc' | 'desc'];
  const options = useQuery(trpc.clients.filterOptions.queryOptions({ projectId }));
  const search = useQuery({
    ...trpc.clients.search.queryOptions({
      projectId,
      query: optionalText(filters.query),
      variableName: optionalText(filters.variableName),
      variableValue: optionalText(filters.variableValue),
      clientType: optionalNumber(filters.clientType),
      listId: optionalNumber(filters.listId),
      crmStateId: optionalNumber(filters.crmStateId),
      tag: filters.tag || undefined,
      assignedMemberId: filters.member === 'none' ? null : optionalNumber(filters.member),
      sort: sortField,
      direction,
      limit: PAGE_SIZE,
      cursor: cursors.at(-1),
    }),
    placeholderData: keepPreviousData,
  });

  const apply = (next: Filters) => {
    setFilters(next);
    setCursors([undefined]);
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

  return (
    <main className="space-y-4 p-4 sm:p-6">
      <h1 className="text-lg font-semibold text-slate-900">Clients</h1>
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
        <Select aria-label="List" value={draft.listId} onChange={(e) => set('listId', e.target.value, true)}>
          <option value="">All lists</option>
          {opts?.lists.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
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
                <tr key={c.id}>
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
      {cursors.length > 1 || search.data?.nextCursor ? (
        <nav className="flex items-center justify-end gap-2" aria-label="Pages">
          <span className="text-sm text-slate-500">Page {cursors.length}</span>
          <Button
            variant="secondary"
            size="sm"
            disabled={cursors.length === 1}
            onClick={() => setCursors(cursors.slice(0, -1))}
          >
            Previous
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={!search.data?.nextCursor || search.isFetching}
            onClick={() => search.data?.nextCursor && setCursors([...cursors, search.data.nextCursor])}
          >
            Next
          </Button>
        </nav>
      ) : null}
    </main>
  );
}
