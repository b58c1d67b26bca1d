'use client';

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { CopyButton } from '@/components/ui/copy-button';
import { SignatureSnippets } from './signature-snippets';

const EVENT_LABELS: Record<string, string> = {
  'message.in': 'Message in',
  'message.out': 'Message out',
  'message.status': 'Message status',
  submission: 'Submission',
  test: 'Test event',
};

function failed(status: number | null) {
  return status === null || status >= 300;
}

function StatusBadge({ status }: { status: number | null }) {
  return (
    <span
      className={cn(
        'inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium tabular-nums',
        failed(status) ? 'bg-red-100 text-red-800' : 'bg-emerald-100 text-emerald-800',
      )}
    >
      {status ?? 'No answer'}
    </span>
  );
}

const time = (at: Date | string) =>
  new Date(at).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });

/**
 * Settings → Webhook log: every attempt the project's webhook got, newest first, with a
 * failures filter; a delivery's detail (the body sent, the start of the answer) and its
 * redelivery; a test event; how to verify the signature.
 */
export function WebhookLog({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const project = useQuery(trpc.project.get.queryOptions({ projectId }));
  const [failuresOnly, setFailuresOnly] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const list = useInfiniteQuery(
    trpc.webhooks.list.infiniteQueryOptions(
      { projectId, failuresOnly },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const refresh = () => queryClient.invalidateQueries(trpc.webhooks.list.pathFilter());
  const sendTest = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: async (row) => {
        setOpenId(row.id);
        await refresh();
      },
    }),
  );
  const webhookUrl = project.data?.webhookUrl;

  return (
    <div className="mx-auto max-w-5xl space-y-4 p-4 sm:p-6">
      <Card>
        <CardTitle
          description={
            <>
              Every POST to your webhook: one for each message received or sent and each submission, signed
              with Standard Webhooks headers. Kept for 14 days.{' '}
              <a href="/docs/webhooks" target="_blank" rel="noopener" className="text-brand-600 underline">
                How webhooks work
              </a>
            </>
          }
        >
          Webhook log
        </CardTitle>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
          <p className="min-w-0 flex-1 basis-64 truncate text-sm text-slate-600">
            {webhookUrl ? (
              <>
                Sending to <span className="font-mono text-slate-800">{webhookUrl}</span>
              </>
            ) : project.data ? (
              <>
                No webhook URL yet:{' '}
                <Link href={`/projects/${projectId}/settings`} className="text-brand-600 underline">
                  set one under General
                </Link>
                .
              </>
            ) : null}
          </p>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={failuresOnly}
              onChange={(e) => setFailuresOnly(e.target.checked)}
              className="size-4 accent-brand-600"
            />
            Failures only
          </label>
          <Button variant="secondary" onClick={() => refresh()} disabled={list.isFetching}>
            Refresh
          </Button>
          <Button onClick={() => sendTest.mutate({ projectId })} disabled={!webhookUrl || sendTest.isPending}>
            {sendTest.isPending ? 'Sending…' : 'Send a test event'}
          </Button>
        </div>
        {sendTest.error ? (
          <div className="mt-3">
            <Alert tone="error">{sendTest.error.message}</Alert>
          </div>
        ) : null}
      </Card>

      <div className="rounded-lg border border-slate-200 bg-white shadow-xs">
        {list.isPending ? (
          <p className="p-5 text-sm text-slate-500">Loading…</p>
        ) : list.error ? (
          <div className="p-5">
            <Alert tone="error">{list.error.message}</Alert>
          </div>
        ) : items.length === 0 ? (
          <p className="p-5 text-sm text-slate-500">
            {failuresOnly
              ? 'No failed deliveries in the last 14 days.'
              : 'No deliveries yet. They appear here as your bot receives and sends messages; send a test event to try your receiver.'}
          </p>
        ) : (
          <ul aria-label="Deliveries" className="divide-y divide-slate-100">
            <li
              aria-hidden
              className="hidden grid-cols-[11.5rem_7rem_6rem_5rem_minmax(0,1fr)] gap-3 px-4 py-2 text-xs font-medium uppercase tracking-wide text-slate-500 md:grid"
            >
              <span>Time</span>
              <span>Event</span>
              <span>Status</span>
              <span>Duration</span>
              <span>webhook-id · error</span>
            </li>
            {items.map((item) => (
              <li key={item.id}>
                <button
                  type="button"
                  aria-expanded={openId === item.id}
                  onClick={() => setOpenId(openId === item.id ? null : item.id)}
                  className={cn(
                    'grid w-full grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-1 px-4 py-2.5 text-left text-sm hover:bg-slate-50 md:grid-cols-[11.5rem_7rem_6rem_5rem_minmax(0,1fr)]',
                    openId === item.id && 'bg-slate-50',
                  )}
                >
                  <span className="whitespace-nowrap text-slate-600 tabular-nums">
                    {time(item.createdAt)}
                  </span>
                  <span className="text-slate-800">
                    {EVENT_LABELS[item.event] ?? (item.event || 'Message')}
                  </span>
                  <span>
                    <StatusBadge status={item.status} />
                  </span>
                  <span className="text-slate-600 tabular-nums">
                    {item.durationMs === null ? '' : `${item.durationMs} ms`}
                  </span>
                  <span className="col-span-2 min-w-0 md:col-span-1">
                    <span className="block truncate font-mono text-xs text-slate-500">{item.webhookId}</span>
                    {item.error ? <span className="block truncate text-red-700">{item.error}</span> : null}
                  </span>
                </button>
                {openId === item.id ? (
                  <DeliveryDetail
                    projectId={projectId}
                    deliveryId={item.id}
                    onRedelivered={async (id) => {
                      await refresh();
                      setOpenId(id);
                    }}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {list.hasNextPage ? (
          <div className="border-t border-slate-100 p-3 text-center">
            <Button
              variant="secondary"
              onClick={() => list.fetchNextPage()}
              disabled={list.isFetchingNextPage}
            >
              {list.isFetchingNextPage ? 'Loading…' : 'Older deliveries'}
            </Button>
          </div>
        ) : null}
      </div>

      <SignatureSnippets secret={project.data?.webhookSecret ?? null} />
    </div>
  );
}

function pretty(body: string | null) {
  if (body === null) return '';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function DeliveryDetail({
  projectId,
  deliveryId,
  onRedelivered,
}: {
  projectId: number;
  deliveryId: string;
  onRedelivered(id: string): Promise<void>;
}) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.webhooks.get.queryOptions({ projectId, deliveryId }));
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({ onSuccess: (row) => onRedelivered(row.id) }),
  );
  const row = detail.data;
  return (
    <section
      aria-label="Delivery detail"
      className="space-y-3 border-t border-slate-100 bg-slate-50 px-4 py-4"
    >
      {detail.error ? <Alert tone="error">{detail.error.message}</Alert> : null}
      {row ? (
        <>
          <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">
            <dt className="text-slate-500">webhook-id</dt>
            <dd className="flex min-w-0 flex-wrap items-center gap-2">
              <span className="break-all font-mono text-xs">{row.webhookId}</span>
              <CopyButton value={row.webhookId} />
            </dd>
            <dt className="text-slate-500">Sent to</dt>
            <dd className="break-all font-mono text-xs">{row.url}</dd>
            <dt className="text-slate-500">Answer</dt>
            <dd>
              <StatusBadge status={row.status} />
              {row.durationMs !== null ? (
                <span className="ml-2 text-slate-600 tabular-nums">{row.durationMs} ms</span>
              ) : null}
            </dd>
            {row.error ? (
              <>
                <dt className="text-slate-500">Error</dt>
                <dd className="break-words text-red-700">{row.error}</dd>
              </>
            ) : null}
          </dl>
          <div className="grid gap-3 lg:grid-cols-2">
            <div className="min-w-0">
              <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-slate-500">Body sent</h3>
              <pre className="max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-md border border-slate-200 bg-white p-3 text-xs">
                {pretty(row.requestBody) || 'Not kept for this delivery.'}
              </pre>
            </div>
            <div className="min-w-0">
              <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-slate-500">
                Start of the answer
              </h3>
              <pre className="max-h-72 overflow-auto whitespace-pre-wrap break-all rounded-md border border-slate-200 bg-white p-3 text-xs">
                {row.responseBody || (row.status === null ? 'No answer came.' : 'An empty answer.')}
              </pre>
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <Button
              variant="secondary"
              onClick={() => redeliver.mutate({ projectId, deliveryId })}
              disabled={redeliver.isPending}
            >
              {redeliver.isPending ? 'Redelivering…' : 'Redeliver'}
            </Button>
            <p className="text-xs text-slate-500">
              Sends the same body again now with the same webhook-id, so a receiver that already has it can
              drop the copy. It is logged as a new attempt.
            </p>
          </div>
          {redeliver.error ? <Alert tone="error">{redeliver.error.message}</Alert> : null}
        </>
      ) : detail.isPending ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : null}
    </section>
  );
}
