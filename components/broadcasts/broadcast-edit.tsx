'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { BroadcastCompose } from './broadcast-compose';

/** A draft's edit page: the compose form, prefilled with the draft (docs/broadcasts.md). */
export function BroadcastEdit({ projectId, broadcastId }: { projectId: number; broadcastId: number }) {
  const trpc = useTRPC();
  // Read once: a refetch must not reset what the user is typing.
  const draft = useQuery({
    ...trpc.broadcasts.draft.queryOptions({ projectId, broadcastId }),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  const back = (
    <Link href={`/projects/${projectId}/broadcasts/${broadcastId}`} className="underline">
      Back to the broadcast
    </Link>
  );
  if (draft.error)
    return (
      <main className="mx-auto max-w-3xl p-4 sm:p-6">
        <Alert tone="error">{draft.error.message}</Alert>
      </main>
    );
  const d = draft.data;
  if (!d) return <main className="p-6 text-sm text-slate-500">Loading…</main>;
  if (d.status !== 'draft')
    return (
      <main className="mx-auto max-w-3xl p-4 sm:p-6">
        <Alert tone="error">
          This broadcast is {d.status}, no longer a draft: only a draft can be edited. {back}
        </Alert>
      </main>
    );
  return <BroadcastCompose key={d.id} projectId={projectId} draft={d} />;
}
