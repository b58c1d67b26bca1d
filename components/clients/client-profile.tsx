'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { ClientHistory } from './client-history';
import { ClientProfileActions } from './client-profile-actions';
import { ClientVariables } from './client-variables';

const dateTime = (d: Date | null) => (d ? new Date(d).toLocaleString() : '—');

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="min-w-0 rounded-lg border border-slate-200 bg-white p-3 sm:p-4" aria-label={title}>
      <h2 className="mb-2 text-sm font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 gap-2 py-0.5">
      <dt className="w-28 shrink-0 text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * One client: the conversation on the left (on a phone, first), and beside it who the client
 * is, where they are in the bot, the deal, the variables, and what can be done to them.
 */
export function ClientProfile({ projectId, clientId }: { projectId: number; clientId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const profile = useQuery(trpc.clients.profile.queryOptions({ projectId, clientId }));
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.clients.profile.queryKey({ projectId, clientId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.clients.history.queryKey({ projectId, clientId }) }),
    ]);
  const back = (
    <Link href={`/projects/${projectId}/clients`} className="text-sm text-brand-700 hover:underline">
      ← Clients
    </Link>
  );

  if (profile.error)
    return (
      <main className="space-y-3 p-6">
        {back}
        <Alert tone="error">{profile.error.message}</Alert>
      </main>
    );
  const c = profile.data;
  if (!c) return <p className="p-6 text-sm text-slate-500">Loading the client…</p>;
  return (
    <main className="space-y-4 p-4 sm:p-6">
      <header className="space-y-1">
        {back}
        <h1 className="flex flex-wrap items-center gap-2 text-lg font-semibold text-slate-900">
          <span className="min-w-0 break-words">{c.displayName}</span>
          <Badge>{c.messenger}</Badge>
          {c.tag ? <Badge className="bg-brand-50 text-brand-700">{c.tag}</Badge> : null}
        </h1>
      </header>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <Section title="History">
          <ClientHistory projectId={projectId} clientId={clientId} clientName={c.displayName} />
        </Section>
        <div className="min-w-0 space-y-4">
          <Section title="Client">
            <dl className="text-sm">
              <Row label="Client id">{c.id}</Row>
              <Row label="Platform id">
                <span className="font-mono text-xs">{c.platformId}</span>
              </Row>
              <Row label="Current block">
                {c.currentBlock ? (
                  <Link
                    href={`/projects/${projectId}?block=${c.currentBlock.id}`}
                    className="text-brand-700 underline"
                    title="Open the canvas on this block"
                  >
                    {c.currentBlock.name || `Block ${c.currentBlock.id}`} (#{c.currentBlock.id})
                  </Link>
                ) : (
                  'None: the next message starts the bot'
                )}
              </Row>
              {c.botPaused ? (
                <Row label="Bot">
                  Paused for this client{c.botPausedUntil ? ` until ${dateTime(c.botPausedUntil)}` : ''}
                </Row>
              ) : null}
              {c.waitingSince ? (
                <Row label="Waiting">For an operator since {dateTime(c.waitingSince)}</Row>
              ) : null}
              <Row label="Assigned to">
                {c.assignedMember ? c.assignedMember.name || c.assignedMember.email : 'Nobody'}
              </Row>
              <Row label="Lists">
                {c.lists.length ? (
                  <span className="flex flex-wrap gap-1">
                    {c.lists.map((l) => (
                      <Badge key={l.id}>{l.name}</Badge>
                    ))}
                  </span>
                ) : (
                  'None'
                )}
              </Row>
              <Row label="Last message">{dateTime(c.lastMessageAt)}</Row>
              <Row label="Created">{dateTime(c.createdAt)}</Row>
              {!c.subscribed ? <Row label="Broadcasts">Unsubscribed</Row> : null}
            </dl>
          </Section>
          <Section title="Actions">
            <ClientProfileActions
              projectId={projectId}
              clientId={clientId}
              canDelete={c.canDelete}
              onChanged={refresh}
            />
          </Section>
          <Section title="Deal">
            {c.deal ? (
              <dl className="text-sm">
                <Row label="Deal">#{c.deal.id}</Row>
                <Row label="CRM state">
                  {c.deal.state ? `${c.deal.state.name} (${c.deal.state.funnel.name})` : 'No state yet'}
                </Row>
                <Row label="Opened">{dateTime(c.deal.createdAt)}</Row>
              </dl>
            ) : (
              <p className="text-sm text-slate-500">No open deal: the next event opens one.</p>
            )}
            {c.closedDeals ? (
              <p className="mt-1 text-xs text-slate-500">
                {c.closedDeals} closed deal{c.closedDeals === 1 ? '' : 's'} before.
              </p>
            ) : null}
            <h3 className="mt-3 mb-1 text-sm font-semibold text-slate-800">Submissions</h3>
            {c.submissions.length ? (
              <ul className="space-y-2 text-sm">
                {c.submissions.map((s) => (
                  <li key={s.id} className="rounded-md bg-slate-50 p-2">
                    <p className="text-xs text-slate-500">
                      {dateTime(s.createdAt)} · {s.block.name || `Block ${s.block.id}`} ·{' '}
                      {s.kept ? 'deal kept open' : 'deal closed'}
                    </p>
                    <dl>
                      {Object.entries(s.variables).map(([name, value]) => (
                        <div key={name} className="flex min-w-0 gap-2">
                          <dt className="shrink-0 font-mono text-xs leading-5 text-slate-600">{name}</dt>
                          <dd className="min-w-0 truncate">{value}</dd>
                        </div>
                      ))}
                    </dl>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-500">No submissions yet.</p>
            )}
          </Section>
          <Section title="Variables">
            <ClientVariables
              projectId={projectId}
              clientId={clientId}
              variables={c.variables}
              onSaved={refresh}
            />
          </Section>
        </div>
      </div>
    </main>
  );
}
