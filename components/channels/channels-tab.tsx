'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { channelReach } from '@/lib/channel-reach';
import { descriptorOfKind } from '@/lib/channels/descriptors';
import { orderChannelKinds } from '@/lib/channels/section-order';
import { CHANNEL_SECTIONS } from './sections';

/**
 * The project's Channels tab: where clients reach the bot, and each kind's section
 * (`CHANNEL_SECTIONS`): connect, see what each channel receives, change it, disconnect it.
 * `webhookProblems`: by kind, why its messenger cannot call this server's webhooks (the server
 * checks its BLOCKBOT_BASE_URL, each module words it), shown on the kind's section. Connected
 * kinds come first, then the widget; a kind with nothing connected is one line until asked.
 */
export function Channels({
  projectId,
  webhookProblems,
}: {
  projectId: number;
  webhookProblems: Record<string, string | null>;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const project = useQuery(trpc.project.get.queryOptions({ projectId }));
  // Last update and last error change as messages arrive.
  const channels = useQuery({ ...trpc.channels.list.queryOptions({ projectId }), refetchInterval: 3000 });
  const invalidate = () =>
    queryClient.invalidateQueries({ queryKey: trpc.channels.list.queryKey({ projectId }) });
  const disconnect = useMutation(trpc.channels.disconnect.mutationOptions({ onSuccess: invalidate }));
  const canManage = project.data ? project.data.role !== 'operator' : false;
  const reach = channels.data ? channelReach(channels.data) : null;
  // Kinds the member unfolded: they stay in place (and open) once connected or emptied.
  const [unfolded, setUnfolded] = useState<ReadonlySet<string>>(new Set());
  const sections = orderChannelKinds(
    Object.keys(CHANNEL_SECTIONS),
    new Set(channels.data?.map((c) => c.kind)),
  );

  /** Disconnects a channel (or deletes a widget) once the manager confirms `question`. */
  const removeButton = (label: string, question: string, channelId: number) =>
    canManage ? (
      <Button
        className="ml-auto"
        variant="secondary"
        size="sm"
        disabled={disconnect.isPending}
        onClick={() => {
          if (confirm(question)) disconnect.mutate({ projectId, channelId });
        }}
      >
        {label}
      </Button>
    ) : null;

  if (channels.error)
    return (
      <div className="p-6">
        <Alert tone="error">{channels.error.message}</Alert>
      </div>
    );

  return (
    <main className="mx-auto max-w-3xl space-y-6 p-6">
      {reach ? (
        <p
          className={
            reach.live ? 'text-sm text-slate-600' : 'rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900'
          }
          data-testid="channels-reach"
        >
          {reach.text}
        </p>
      ) : null}
      {/* Whichever kind was disconnected, what went wrong shows here. */}
      {disconnect.error ? <Alert tone="error">{disconnect.error.message}</Alert> : null}
      {disconnect.data?.warning ? <Alert tone="info">{disconnect.data.warning}</Alert> : null}
      {channels.data
        ? sections.map(({ kind, open }) => {
            const Section = CHANNEL_SECTIONS[kind as keyof typeof CHANNEL_SECTIONS];
            return open || unfolded.has(kind) ? (
              <div key={kind} className="space-y-6" data-testid={`channel-kind-${kind}`}>
                <Section
                  projectId={projectId}
                  canManage={canManage}
                  channels={channels.data.filter((c) => c.kind === kind)}
                  onChanged={invalidate}
                  removeButton={removeButton}
                  webhookProblem={webhookProblems[kind] ?? null}
                />
              </div>
            ) : (
              <FoldedKind
                key={kind}
                kind={kind}
                onOpen={() => setUnfolded((set) => new Set(set).add(kind))}
              />
            );
          })
        : null}
    </main>
  );
}

/** A kind with nothing connected, as one line: what it is, and a button that shows its form. */
function FoldedKind({ kind, onOpen }: { kind: string; onOpen(): void }) {
  const doc = descriptorOfKind(kind)?.doc;
  const label = doc?.label ?? kind;
  return (
    <Card className="flex items-center gap-3 py-3" data-testid={`channel-kind-${kind}`}>
      <div className="min-w-0 flex-1">
        <h2 className="text-sm font-semibold text-slate-900">{label}</h2>
        <p className="text-sm text-slate-500">Not connected{doc?.about ? ` · ${doc.about}` : ''}</p>
      </div>
      <Button
        variant="secondary"
        size="sm"
        aria-expanded={false}
        aria-label={`Set up ${label}`}
        onClick={onOpen}
      >
        Set up
      </Button>
    </Card>
  );
}
