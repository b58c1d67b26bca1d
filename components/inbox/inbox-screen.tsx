'use client';

import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import type { HistoryMessage } from '@/lib/history-message';
import { ChatProfileForm } from './chat-profile-form';
import { ConversationPane } from './conversation-pane';
import { useInboxStream } from './use-inbox-stream';

const FILTERS = {
  all: { label: 'All', empty: 'No conversations yet. When clients write to the bot, they show up here.' },
  mine: { label: 'Mine', empty: 'No conversation is assigned to you.' },
  unassigned: { label: 'Unassigned', empty: 'Every conversation is assigned to someone.' },
  waiting: {
    label: 'Waiting',
    empty:
      'No conversation is waiting for an operator: none asked for one, and no paused one has an unanswered message.',
  },
} as const;
type Filter = keyof typeof FILTERS;

const shortTime = (d: Date) => {
  const date = new Date(d);
  return date.toDateString() === new Date().toDateString()
    ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString();
};

/**
 * The Conversations tab (docs/inbox.md): the live list on the left, the open conversation on
 * the right; on a phone one at a time.
 */
export function InboxScreen({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<Filter>('all');
  const [openId, setOpenId] = useState<number | null>(null);

  const list = useInfiniteQuery(
    trpc.inbox.list.infiniteQueryOptions(
      { projectId, filter },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const conversations = list.data?.pages.flatMap((p) => p.conversations) ?? [];
  const waitingCount = list.data?.pages[0]?.waitingCount ?? 0;

  // Bursts of events re-read the list once.
  const refetchTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const refreshList = useCallback(() => {
    clearTimeout(refetchTimer.current);
    refetchTimer.current = setTimeout(() => queryClient.invalidateQueries(trpc.inbox.list.pathFilter()), 250);
  }, [queryClient, trpc]);

  const conversationKey = openId ? trpc.inbox.conversation.queryKey({ projectId, clientId: openId }) : null;
  useInboxStream(projectId, openId, {
    onMessage(message: HistoryMessage) {
      if (!conversationKey) return;
      queryClient.setQueryData(conversationKey, (old) =>
        old ? { ...old, messages: merge(old.messages, message) } : old,
      );
    },
    onChanged(clientId) {
      refreshList();
      if (openId && (clientId === null || clientId === openId))
        queryClient.invalidateQueries({ queryKey: conversationKey ?? undefined });
    },
  });

  return (
    <div className="flex h-full min-h-0">
      <section
        aria-label="Conversations"
        className={cn(
          'flex min-h-0 w-full flex-col border-r border-slate-200 bg-white md:w-80 md:shrink-0',
          openId !== null && 'hidden md:flex',
        )}
      >
        <div className="flex gap-1 border-b border-slate-200 p-2" role="tablist" aria-label="Show">
          {(Object.keys(FILTERS) as Filter[]).map((f) => (
            <button
              key={f}
              type="button"
              role="tab"
              aria-selected={filter === f}
              onClick={() => setFilter(f)}
              className={cn(
                'rounded-md px-2.5 py-1 text-sm',
                filter === f ? 'bg-brand-50 font-medium text-brand-700' : 'text-slate-600 hover:bg-slate-100',
              )}
            >
              {FILTERS[f].label}
              {f === 'waiting' && waitingCount ? (
                <span
                  className="ml-1 rounded-full bg-amber-100 px-1.5 text-xs font-semibold text-amber-800"
                  data-testid="waiting-count"
                >
                  {waitingCount}
                </span>
              ) : null}
            </button>
          ))}
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto">
          {list.error ? (
            <div className="p-3">
              <Alert tone="error">{list.error.message}</Alert>
            </div>
          ) : list.isPending ? (
            <p className="p-4 text-sm text-slate-500">Loading…</p>
          ) : conversations.length === 0 ? (
            <p className="p-4 text-sm text-slate-500">{FILTERS[filter].empty}</p>
          ) : (
            <ul aria-label="Conversation list">
              {conversations.map((c) => (
                <li key={c.clientId}>
                  <button
                    type="button"
                    onClick={() => setOpenId(c.clientId)}
                    aria-current={openId === c.clientId ? 'true' : undefined}
                    data-testid="conversation"
                    className={cn(
                      'flex w-full flex-col gap-0.5 border-b border-slate-100 px-3 py-2.5 text-left hover:bg-slate-50',
                      openId === c.clientId && 'bg-brand-50 hover:bg-brand-50',
                    )}
                  >
                    <span className="flex items-center gap-2">
                      <span
                        className={cn(
                          'min-w-0 flex-1 truncate text-sm',
                          c.unread ? 'font-semibold' : 'font-medium',
                        )}
                      >
                        {c.displayName}
                      </span>
                      <span className="shrink-0 text-xs text-slate-500">{shortTime(c.lastMessageAt)}</span>
                    </span>
                    <span className="flex items-center gap-2">
                      <span className="min-w-0 flex-1 truncate text-xs text-slate-600">
                        {c.lastMessage
                          ? `${c.lastMessage.from ? `${c.lastMessage.from}: ` : ''}${c.lastMessage.text}`
                          : ''}
                      </span>
                      {c.unread ? (
                        <span
                          className="shrink-0 rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white"
                          title={`${c.unread} unread`}
                        >
                          {c.unreadCapped ? '99+' : c.unread}
                          <span className="sr-only"> unread</span>
                        </span>
                      ) : null}
                    </span>
                    <span className="flex flex-wrap items-center gap-1 text-xs text-slate-500">
                      {c.messenger}
                      {c.waiting ? <Badge className="bg-amber-100 text-amber-800">Waiting</Badge> : null}
                      {c.paused ? <Badge>Bot paused</Badge> : null}
                      {c.assigned ? (
                        <span className="truncate">· {c.assigned.name || c.assigned.email}</span>
                      ) : null}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {list.hasNextPage ? (
            <div className="p-3">
              <Button
                variant="secondary"
                size="sm"
                onClick={() => list.fetchNextPage()}
                disabled={list.isFetchingNextPage}
              >
                Show more
              </Button>
            </div>
          ) : null}
        </div>
        <ChatProfileForm projectId={projectId} />
      </section>
      <section
        aria-label="Conversation"
        className={cn(
          'min-h-0 min-w-0 flex-1 flex-col bg-slate-50',
          openId === null ? 'hidden md:flex' : 'flex',
        )}
      >
        {openId === null ? (
          <p className="m-auto p-6 text-sm text-slate-500">Select a conversation to read and answer it.</p>
        ) : (
          <ConversationPane
            key={openId}
            projectId={projectId}
            clientId={openId}
            onBack={() => setOpenId(null)}
            onChanged={refreshList}
          />
        )}
      </section>
    </div>
  );
}

/** The conversation's messages with one added or replaced, in id order. */
function merge(messages: HistoryMessage[], message: HistoryMessage): HistoryMessage[] {
  const rest = messages.filter((m) => m.id !== message.id);
  return [...rest, message].sort((a, b) =>
    BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0,
  );
}
