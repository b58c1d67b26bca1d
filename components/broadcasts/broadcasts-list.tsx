'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Pager } from '@/components/ui/pager';
import { BroadcastStatus, dateTime } from './broadcast-status';

/** The Broadcasts tab: every broadcast of the project, the API's included, newest first. */
export function BroadcastsList({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(0);
  const list = useQuery({
    ...trpc.broadcasts.list.queryOptions({ projectId, page }),
    placeholderData: keepPreviousData,
    // Broadcasts started elsewhere (the API, another member) show when the tab is opened.
    refetchOnMount: 'always',
    // Running broadcasts' counts move: a modest poll while any runs.
    refetchInterval: (q) =>
      q.state.data?.items.some((b) => b.status === 'running' || b.status === 'scheduled') ? 3000 : false,
  });
  const options = useQuery({
    ...trpc.broadcasts.recipientOptions.queryOptions({ projectId }),
    enabled: !!list.data?.manager,
  });
  const setting = useMutation(
    trpc.broadcasts.setOperatorsSend.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.broadcasts.pathKey() }),
    }),
  );
  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <main className="space-y-4 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold text-slate-900">Broadcasts</h1>
        {data?.canSend ? (
          <Link
            href={`/projects/${projectId}/broadcasts/new`}
            className="inline-flex h-9 items-center rounded-md bg-brand-600 px-3.5 text-sm font-medium text-white hover:bg-brand-700"
          >
            New broadcast
          </Link>
        ) : null}
      </div>
      {list.data?.manager && options.data ? (
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={options.data.operatorsSendBroadcasts}
            disabled={setting.isPending}
            onChange={(e) =>
              setting.mutate({ projectId, allowed: e.target.checked }, { onSuccess: () => options.refetch() })
            }
          />
          Operators may send broadcasts (owners and admins always may)
        </label>
      ) : null}
      {data && !data.canSend ? (
        <Alert>Operators may not send broadcasts in this project; an owner or admin can allow it here.</Alert>
      ) : null}
      {list.error ? <Alert tone="error">{list.error.message}</Alert> : null}
      {data && data.items.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-8 text-center text-sm text-slate-500">
          No broadcasts yet. Compose one here, or start one through the API's broadcast.
        </p>
      ) : null}
      {data?.items.length ? (
        <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs text-slate-500 uppercase">
              <tr>
                {[
                  'Broadcast',
                  'Status',
                  'Recipients',
                  'Sent',
                  'Failed',
                  'Pending',
                  'Created',
                  'Started',
                  'Finished',
                ].map((h) => (
                  <th key={h} className="whitespace-nowrap px-3 py-2 font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.items.map((b) => (
                <tr key={b.id}>
                  <td className="max-w-72 px-3 py-2">
                    <Link
                      href={`/projects/${projectId}/broadcasts/${b.id}`}
                      className="block truncate font-medium text-slate-900 hover:underline"
                    >
                      {b.name}
                    </Link>
                    <span className="block truncate text-xs text-slate-500">
                      #{b.id} · {b.source === 'api' ? 'API' : 'app'} · {b.recipients}
                    </span>
                  </td>
                  <td className="px-3 py-2">
                    <BroadcastStatus status={b.status} />
                    {b.status === 'scheduled' ? (
                      <span className="block text-xs text-slate-500">{dateTime(b.scheduledAt)}</span>
                    ) : null}
                  </td>
                  <td className="px-3 py-2 tabular-nums">{b.total.toLocaleString()}</td>
                  <td className="px-3 py-2 tabular-nums">{b.sent.toLocaleString()}</td>
                  <td className="px-3 py-2 tabular-nums">{b.failed.toLocaleString()}</td>
                  <td className="px-3 py-2 tabular-nums">{b.pending.toLocaleString()}</td>
                  <td className="whitespace-nowrap px-3 py-2">{dateTime(b.createdAt)}</td>
                  <td className="whitespace-nowrap px-3 py-2">{dateTime(b.startedAt)}</td>
                  <td className="whitespace-nowrap px-3 py-2">{dateTime(b.finishedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager
        label={`Page ${page + 1} of ${pages}`}
        previous={page > 0 ? () => setPage(page - 1) : null}
        next={page + 1 < pages ? () => setPage(page + 1) : null}
      />
    </main>
  );
}
