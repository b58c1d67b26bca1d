'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { channelReach } from '@/lib/channel-reach';
import { CHANNEL_SECTIONS } from './sections';

/**
 * The project's Channels tab: where clients reach the bot, and each kind's section
 * (`CHANNEL_SECTIONS`): connect, see what each channel receives, change it, disconnect it.
 * `webhookProblems`: by kind, why its messenger cannot call this server's webhooks (the server
 * checks its BLOCKBOT_BASE_URL, each module words it), shown on the kind's section.
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
      {Object.entries(CHANNEL_SECTIONS).map(([kind, Section]) => (
        <Section
          key={kind}
          projectId={projectId}
          canManage={canManage}
          channels={channels.data?.filter((c) => c.kind === kind)}
          onChanged={invalidate}
          removeButton={removeButton}
          webhookProblem={webhookProblems[kind] ?? null}
        />
      ))}
    </main>
  );
}
