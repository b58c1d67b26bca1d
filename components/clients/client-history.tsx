'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { MessageList } from '@/components/conversation/message-list';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useScrollToNewest } from '@/components/ui/use-scroll-to-newest';
import type { HistoryMessage } from '@/lib/history-message';

/**
 * The client's whole history, newest at the bottom: the latest page, then older pages loaded
 * backwards on demand (keyset by message id). When the latest page changes (the client was
 * sent to a block, a message came) the older pages are dropped, so no message falls between.
 */
export function ClientHistory({
  projectId,
  clientId,
  clientName,
}: {
  projectId: number;
  clientId: number;
  /** The client's display name (`clientDisplayName`): the label of their messages. */
  clientName: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const latest = useQuery(trpc.clients.history.queryOptions({ projectId, clientId }));
  const [older, setOlder] = useState<{ messages: HistoryMessage[]; cursor: string | null } | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const keepOffset = useRef<number | null>(null);

  const newestId = latest.data?.messages.at(-1)?.id;
  // A new latest page: forget older pages and show the newest message.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the newest message changes
  useEffect(() => setOlder(null), [newestId]);
  useScrollToNewest(scroller, newestId);
  // Older messages added above keep the ones being read where they were.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when older pages arrive
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && keepOffset.current !== null) el.scrollTop = el.scrollHeight - keepOffset.current;
    keepOffset.current = null;
  }, [older]);

  const cursor = older ? older.cursor : (latest.data?.olderCursor ?? null);
  const loadOlder = async () => {
    if (!cursor) return;
    setLoading(true);
    setError(null);
    try {
      const page = await queryClient.fetchQuery(
        trpc.clients.history.queryOptions({ projectId, clientId, before: cursor }),
      );
      const el = scroller.current;
      keepOffset.current = el ? el.scrollHeight - el.scrollTop : null;
      setOlder({ messages: [...page.messages, ...(older?.messages ?? [])], cursor: page.olderCursor });
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The older messages could not be loaded.');
    } finally {
      setLoading(false);
    }
  };

  if (latest.error) return <Alert tone="error">{latest.error.message}</Alert>;
  if (!latest.data) return <p className="text-sm text-slate-500">Loading the history…</p>;
  return (
    <div
      ref={scroller}
      className="max-h-[70vh] min-h-48 overflow-y-auto rounded-lg bg-slate-100 p-2 sm:p-3"
      data-testid="client-history"
    >
      {cursor ? (
        <div className="mb-3 flex justify-center">
          <Button variant="secondary" size="sm" onClick={loadOlder} disabled={loading}>
            {loading ? 'Loading…' : 'Load older messages'}
          </Button>
        </div>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <MessageList messages={[...(older?.messages ?? []), ...latest.data.messages]} clientName={clientName} />
    </div>
  );
}
