'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { DealPanel } from '@/components/crm/deal-panel';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { Pager } from '@/components/ui/pager';

const PAGE_SIZE = 50;

const dateTime = (d: Date | string) => new Date(d).toLocaleString();

/**
 * The Submissions page (docs/crm.md): one red or yellow block's submissions at a time, the
 * submitted variables as columns, a date range in the project's time zone, a CSV export of
 * the same range, links to the client and the deal's panel.
 */
export function SubmissionsTable({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const blocks = useQuery(trpc.submissions.blocks.queryOptions({ projectId }));
  const [chosen, setChosen] = useState<number | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  // Cursors of the pages seen so far: the last is the current page, popping one goes back.
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const [openDeal, setOpenDeal] = useState<number | null>(null);
  // The block with the most submissions is shown first.
  const busiest = blocks.data?.reduce<(typeof blocks.data)[number] | null>(
    (best, b) => (!best || b.count > best.count ? b : best),
    null,
  );
  const blockId = chosen ?? busiest?.id ?? null;
  const rangeError = from && to && from > to ? 'The end date is before the start date.' : null;
  const range = { blockId: blockId ?? 0, from: from || undefined, to: to || undefined };
  const page = useQuery({
    ...trpc.submissions.page.queryOptions({ projectId, ...range, cursor: cursors.at(-1), limit: PAGE_SIZE }),
    enabled: blockId !== null && !rangeError,
    placeholderData: keepPreviousData,
  });
  const restart = () => setCursors([undefined]);
  const exportHref = `/api/projects/${projectId}/submissions/export?${new URLSearchParams({
    blockId: String(blockId ?? ''),
    ...(from && { from }),
    ...(to && { to }),
  })}`;
  // A reversed range asks nothing: the rows of the range before must not stand for it.
  const data = rangeError ? undefined : page.data;
  const nextCursor = data?.nextCursor;

  return (
    <main className="space-y-4 p-4 sm:p-6">
      <h1 className="text-lg font-semibold text-slate-900">Submissions</h1>
      {blocks.error ? <Alert tone="error">{blocks.error.message}</Alert> : null}
      {blocks.isSuccess && blocks.data.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-8 text-center text-sm text-slate-500">
          No red or yellow blocks yet. A red block (close the deal) or a yellow block (send the data) submits
          the variables a client collected; its submissions appear here.
        </p>
      ) : null}
      {blocks.data?.length ? (
        <div className="grid grid-cols-2 items-end gap-2 sm:grid-cols-[minmax(0,2fr)_auto_auto_auto]">
          <div className="col-span-2 sm:col-span-1">
            <Field id="submissions-block" label="Block">
              <Select
                id="submissions-block"
                value={blockId ?? ''}
                onChange={(e) => {
                  setChosen(Number(e.target.value));
                  restart();
                }}
              >
                {blocks.data.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.deleted
                      ? `Block ${b.id} (deleted)`
                      : `${b.name || `Block ${b.id}`} (${b.kind === 'close_deal' ? 'red' : 'yellow'})`}{' '}
                    · {b.count}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <Field id="submissions-from" label="From">
            <Input
              id="submissions-from"
              type="date"
              value={from}
              onChange={(e) => {
                setFrom(e.target.value);
                restart();
              }}
            />
          </Field>
          <Field id="submissions-to" label="To">
            <Input
              id="submissions-to"
              type="date"
              value={to}
              onChange={(e) => {
                setTo(e.target.value);
                restart();
              }}
            />
          </Field>
          {blockId !== null && !rangeError && data?.total ? (
            <a
              href={exportHref}
              download
              className="col-span-2 inline-flex h-9 items-center justify-center rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 hover:bg-slate-50 sm:col-span-1"
            >
              Export CSV
            </a>
          ) : null}
        </div>
      ) : null}
      {rangeError ? (
        <Alert tone="error">{rangeError} Pick an end date on or after the start date.</Alert>
      ) : null}
      {page.error ? <Alert tone="error">{page.error.message}</Alert> : null}
      {data ? (
        <p className="text-sm text-slate-500">
          {data.total === 1 ? '1 submission' : `${data.total.toLocaleString()} submissions`}
          {from || to ? ' in these dates' : ''} (dates in the project's time zone).
          {data.columnsCut
            ? ' This block collects more variables than shown; the first 200 by name are shown.'
            : ''}
        </p>
      ) : null}
      {data && data.rows.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-8 text-center text-sm text-slate-500">
          {from || to
            ? 'No submissions of this block in these dates.'
            : 'No submissions of this block yet: they appear when a client enters it.'}
        </p>
      ) : null}
      {data?.rows.length ? (
        <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs text-slate-500">
              <tr>
                {['Date', 'Client', 'Messenger', 'Deal'].map((h) => (
                  <th key={h} className="whitespace-nowrap px-3 py-2 font-medium uppercase">
                    {h}
                  </th>
                ))}
                {data.columns.map((name) => (
                  <th
                    key={name}
                    className="max-w-48 truncate whitespace-nowrap px-3 py-2 font-mono font-medium"
                  >
                    {name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.rows.map((s) => (
                <tr key={s.id}>
                  <td className="whitespace-nowrap px-3 py-2">{dateTime(s.createdAt)}</td>
                  <td className="max-w-48 truncate px-3 py-2 font-medium text-slate-900">
                    <Link href={`/projects/${projectId}/clients/${s.client.id}`} className="hover:underline">
                      {s.client.displayName}
                    </Link>
                  </td>
                  <td className="whitespace-nowrap px-3 py-2">{s.client.messenger}</td>
                  <td className="whitespace-nowrap px-3 py-2">
                    {s.dealId === null ? (
                      '—'
                    ) : (
                      <button
                        type="button"
                        className="text-brand-700 hover:underline"
                        aria-label={`Open deal ${s.dealId}`}
                        onClick={() => setOpenDeal(s.dealId)}
                      >
                        #{s.dealId}
                      </button>
                    )}
                    <span className="ml-1 text-xs text-slate-500">{s.kept ? 'kept open' : 'closed'}</span>
                  </td>
                  {data.columns.map((name) => (
                    <td key={name} className="max-w-64 truncate px-3 py-2" title={s.variables[name]}>
                      {s.variables[name] ?? ''}
                    </td>
                  ))}
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
        busy={page.isFetching}
      />
      {openDeal ? (
        <DealPanel projectId={projectId} dealId={openDeal} onClose={() => setOpenDeal(null)} />
      ) : null}
    </main>
  );
}
