'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/input';
import { Pager } from '@/components/ui/pager';
import { messengerLabel } from '@/lib/client-display';
import { BroadcastStatus, dateTime, duration } from './broadcast-status';

/**
 * How often a broadcast's page reads its counts while it runs. The counts live on the broadcast's
 * row (one primary-key read), so polling costs the same however many recipients there are; a
 * live event per send would be 100,000 events for a 100,000-recipient broadcast.
 */
const POLL_MS = 2000;
type StatusFilter = '' | 'pending' | 'sent' | 'failed' | 'cancelled';

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-md border border-slate-200 bg-white px-3 py-2">
      <div className="text-xs text-slate-500">{label}</div>
      <div className="text-lg font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

export function BroadcastView({ projectId, broadcastId }: { projectId: number; broadcastId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(0);
  const [status, setStatus] = useState<StatusFilter>('');
  const [error, setError] = useState<string | null>(null);
  const b = useQuery({
    ...trpc.broadcasts.get.queryOptions({ projectId, broadcastId }),
    refetchInterval: (q) => (['running', 'scheduled'].includes(q.state.data?.status ?? '') ? POLL_MS : false),
  });
  const live = b.data && ['running', 'scheduled', 'paused'].includes(b.data.status);
  const recipients = useQuery({
    ...trpc.broadcasts.recipients.queryOptions({
      projectId,
      broadcastId,
      page,
      status: status || undefined,
    }),
    placeholderData: keepPreviousData,
  });
  // The outcomes are read again whenever the counts move, and once more as the broadcast ends
  // (its polling stops then): never a "pending" left under a finished broadcast.
  const progress = b.data ? `${b.data.status} ${b.data.sent} ${b.data.failed}` : null;
  useEffect(() => {
    if (progress) void queryClient.invalidateQueries({ queryKey: trpc.broadcasts.recipients.pathKey() });
  }, [progress, queryClient, trpc]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.broadcasts.pathKey() });
  const handlers = { onSuccess: refresh, onError: (e: { message: string }) => setError(e.message) };
  const control = useMutation(trpc.broadcasts.control.mutationOptions(handlers));
  const sendDraft = useMutation(trpc.broadcasts.sendDraft.mutationOptions(handlers));
  const act = (action: 'pause' | 'resume' | 'cancel') => {
    setError(null);
    if (
      action === 'cancel' &&
      !window.confirm('Cancel this broadcast? Recipients not reached yet get nothing.')
    )
      return;
    control.mutate({ projectId, broadcastId, action });
  };

  if (b.error)
    return (
      <main className="p-6">
        <Alert tone="error">{b.error.message}</Alert>
      </main>
    );
  const d = b.data;
  if (!d) return <main className="p-6 text-sm text-slate-500">Loading…</main>;
  const done = d.sent + d.failed;
  const percent = d.total ? Math.round((done / d.total) * 100) : 0;
  const busy = control.isPending || sendDraft.isPending;
  const pages = recipients.data
    ? Math.max(1, Math.ceil(recipients.data.total / recipients.data.pageSize))
    : 1;
  return (
    <main className="mx-auto max-w-5xl space-y-4 p-4 sm:p-6">
      <nav className="text-sm">
        <Link href={`/projects/${projectId}/broadcasts`} className="text-slate-500 hover:underline">
          ← Broadcasts
        </Link>
      </nav>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="flex min-w-0 items-center gap-2 text-lg font-semibold text-slate-900">
          <span className="truncate">{d.name}</span>
          <span data-testid="broadcast-status">
            <BroadcastStatus status={d.status} />
          </span>
        </h1>
        {d.canSend ? (
          <div className="flex flex-wrap gap-2">
            {d.status === 'draft' ? (
              <>
                <Link
                  href={`/projects/${projectId}/broadcasts/${broadcastId}/edit`}
                  className="inline-flex h-9 items-center rounded-md border border-slate-300 bg-white px-3.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
                >
                  Edit
                </Link>
                <Button disabled={busy} onClick={() => sendDraft.mutate({ projectId, broadcastId })}>
                  Send now
                </Button>
              </>
            ) : null}
            {d.status === 'running' ? (
              <Button variant="secondary" disabled={busy} onClick={() => act('pause')}>
                Pause
              </Button>
            ) : null}
            {d.status === 'paused' ? (
              <Button disabled={busy} onClick={() => act('resume')}>
                Resume
              </Button>
            ) : null}
            {['running', 'paused', 'scheduled', 'draft'].includes(d.status) ? (
              <Button variant="danger" disabled={busy} onClick={() => act('cancel')}>
                Cancel
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <p className="text-sm text-slate-600">
        #{d.id} · {d.source === 'api' ? 'started through the API' : 'composed here'} · {d.recipients} · every{' '}
        {d.shiftSeconds} s{d.status === 'scheduled' ? <> · sends at {dateTime(d.scheduledAt)}</> : null}
      </p>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-7">
        <Stat label="Recipients" value={d.total.toLocaleString()} testId="count-total" />
        <Stat label="Sent" value={d.sent.toLocaleString()} testId="count-sent" />
        <Stat label="Failed" value={d.failed.toLocaleString()} testId="count-failed" />
        <Stat label="Pending" value={d.pending.toLocaleString()} testId="count-pending" />
        {d.cancelled ? <Stat label="Cancelled" value={d.cancelled.toLocaleString()} /> : null}
        <Stat label="Rate" value={d.rate ? `${d.rate.toFixed(1)}/s` : '—'} />
        <Stat label="Time left" value={d.status === 'running' ? duration(d.secondsLeft) : '—'} />
      </div>
      {d.total ? (
        <div
          className="h-2 overflow-hidden rounded-full bg-slate-200"
          role="progressbar"
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-label="Progress"
        >
          <div className="h-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
        </div>
      ) : null}
      {live ? (
        <p className="text-xs text-slate-500">Updates every {POLL_MS / 1000} seconds while it runs.</p>
      ) : null}
      <Card className="space-y-2 p-4">
        <h2 className="text-sm font-semibold text-slate-900">Message</h2>
        {d.blockId && !d.text ? (
          <p className="text-sm">
            Block <strong>{d.blockName ?? `#${d.blockId}`}</strong> (#{d.blockId}), run for each recipient.
          </p>
        ) : (
          <p className="text-sm whitespace-pre-line text-slate-800">{d.text || '—'}</p>
        )}
        {Array.isArray(d.buttons) && d.buttons.length ? (
          <p className="text-xs text-slate-500">
            Buttons: {(d.buttons as { text?: string }[]).map((x) => x.text).join(' · ')}
          </p>
        ) : null}
        {d.attachments.map((a) => (
          <p key={a.url} className="truncate text-xs text-slate-500">
            {a.type}: {a.url}
          </p>
        ))}
        <p className="text-xs text-slate-500">
          Created {dateTime(d.createdAt)} · started {dateTime(d.startedAt)} · finished{' '}
          {dateTime(d.finishedAt)}
        </p>
      </Card>
      {d.status !== 'draft' && d.status !== 'scheduled' ? (
        <section className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-sm font-semibold text-slate-900">Recipients</h2>
            <div className="w-40">
              <Select
                aria-label="Outcome"
                value={status}
                onChange={(e) => {
                  setStatus(e.target.value as StatusFilter);
                  setPage(0);
                }}
              >
                <option value="">All outcomes</option>
                <option value="sent">Sent</option>
                <option value="failed">Failed</option>
                <option value="pending">Pending</option>
                <option value="cancelled">Cancelled</option>
              </Select>
            </div>
          </div>
          <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
            <table className="w-full text-left text-sm">
              <thead className="bg-slate-50 text-xs text-slate-500 uppercase">
                <tr>
                  {['Client', 'Messenger', 'Outcome', 'Error', 'At'].map((h) => (
                    <th key={h} className="whitespace-nowrap px-3 py-2 font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {recipients.data?.items.map((r) => (
                  <tr key={r.clientId}>
                    <td className="max-w-48 truncate px-3 py-2">
                      <Link href={`/projects/${projectId}/clients/${r.clientId}`} className="hover:underline">
                        {r.name}
                      </Link>
                    </td>
                    <td className="px-3 py-2">{messengerLabel(r.clientType)}</td>
                    <td className="px-3 py-2">
                      <BroadcastStatus status={r.status} />
                    </td>
                    <td className="max-w-80 truncate px-3 py-2 text-red-700" title={r.error ?? ''}>
                      {r.error ?? ''}
                    </td>
                    <td className="whitespace-nowrap px-3 py-2">{dateTime(r.sentAt)}</td>
                  </tr>
                ))}
                {recipients.data && !recipients.data.items.length ? (
                  <tr>
                    <td colSpan={5} className="px-3 py-6 text-center text-slate-500">
                      No recipients with this outcome.
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
          <Pager
            label={`Page ${page + 1} of ${pages}`}
            previous={page > 0 ? () => setPage(page - 1) : null}
            next={page + 1 < pages ? () => setPage(page + 1) : null}
          />
        </section>
      ) : null}
    </main>
  );
}
