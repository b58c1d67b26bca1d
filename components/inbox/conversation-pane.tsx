'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { ButtonsNow } from '@/components/conversation/buttons-now';
import { MessageList } from '@/components/conversation/message-list';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Select, Textarea } from '@/components/ui/input';

const REPLY_LIMIT = 4096;
/** The assign menu's round-robin choice (the API's `assign_to_user` without an e-mail). */
const ROUND_ROBIN = '*';

/** One conversation of the inbox: who, the handoff's state and actions, the messages, the reply box. */
export function ConversationPane({
  projectId,
  clientId,
  onBack,
  onChanged,
}: {
  projectId: number;
  clientId: number;
  onBack(): void;
  /** The list should re-read (read marker, pause, assignment). */
  onChanged(): void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { projectId, clientId };
  const conversation = useQuery(trpc.inbox.conversation.queryOptions(input));
  const members = useQuery(trpc.inbox.members.queryOptions({ projectId }));
  const refresh = () => {
    onChanged();
    return queryClient.invalidateQueries({ queryKey: trpc.inbox.conversation.queryKey(input) });
  };
  const done = { onSuccess: refresh };
  const pause = useMutation(trpc.inbox.pause.mutationOptions(done));
  const resume = useMutation(trpc.inbox.resume.mutationOptions(done));
  const waitingDone = useMutation(trpc.inbox.waitingDone.mutationOptions(done));
  const assign = useMutation(trpc.inbox.assign.mutationOptions(done));
  const markRead = useMutation(trpc.inbox.markRead.mutationOptions({ onSuccess: onChanged }));
  const [text, setText] = useState('');
  const reply = useMutation(
    trpc.inbox.reply.mutationOptions({
      onSuccess: (result) => {
        if (result.delivered) setText('');
        return refresh();
      },
    }),
  );
  const [assignTo, setAssignTo] = useState('');

  const messages = conversation.data?.messages ?? [];
  const latestId = messages.at(-1)?.id;
  // Opening a conversation, and every message seen while it is open, marks it read.
  const { mutate: read } = markRead;
  useEffect(() => {
    if (latestId) read({ projectId, clientId, messageId: BigInt(latestId) });
  }, [latestId, projectId, clientId, read]);
  const bottom = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (latestId) bottom.current?.scrollIntoView({ block: 'end' });
  }, [latestId]);

  if (conversation.error)
    return (
      <div className="p-4">
        <Button variant="ghost" size="sm" onClick={onBack} className="md:hidden">
          ← Conversations
        </Button>
        <Alert tone="error">{conversation.error.message}</Alert>
      </div>
    );
  if (!conversation.data) return <p className="p-6 text-sm text-slate-500">Loading…</p>;
  const { client } = conversation.data;
  const actionError = [pause, resume, waitingDone, assign].find((m) => m.error)?.error?.message;

  function send(event?: FormEvent) {
    event?.preventDefault();
    if (!text.trim() || reply.isPending) return;
    reply.mutate({ projectId, clientId, text });
  }
  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey) send(e);
  }

  return (
    <div className="flex h-full min-h-0 flex-col">
      <header className="space-y-2 border-b border-slate-200 bg-white px-4 py-3">
        <div className="flex flex-wrap items-center gap-2">
          <Button
            variant="ghost"
            size="sm"
            onClick={onBack}
            className="md:hidden"
            aria-label="Back to conversations"
          >
            ←
          </Button>
          <h2 className="min-w-0 truncate font-medium text-slate-900">{client.displayName}</h2>
          <span className="text-xs text-slate-500">
            {client.messenger} · {client.platformId}
          </span>
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="handoff">
          {client.paused ? (
            <>
              <Badge>
                Bot paused{' '}
                {client.pausedUntil
                  ? `until ${new Date(client.pausedUntil).toLocaleString()}`
                  : 'until resumed'}
              </Badge>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => resume.mutate(input)}
                disabled={resume.isPending}
              >
                Resume bot
              </Button>
            </>
          ) : (
            <>
              <Badge className="bg-emerald-50 text-emerald-800">Bot active</Badge>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => pause.mutate(input)}
                disabled={pause.isPending}
              >
                Pause bot
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => pause.mutate({ ...input, indefinitely: true })}
                disabled={pause.isPending}
              >
                Pause until resumed
              </Button>
            </>
          )}
          {client.waitingSince ? (
            <>
              <Badge className="bg-amber-100 text-amber-800">
                Waiting since {new Date(client.waitingSince).toLocaleString()}
              </Badge>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => waitingDone.mutate(input)}
                disabled={waitingDone.isPending}
              >
                Done
              </Button>
            </>
          ) : client.waiting ? (
            // Paused with the client's last message unanswered: waiting until someone answers.
            <Badge className="bg-amber-100 text-amber-800">Waiting for an answer</Badge>
          ) : null}
        </div>
        <form
          className="flex flex-wrap items-center gap-2 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            assign.mutate({ ...input, email: assignTo === ROUND_ROBIN ? undefined : assignTo });
          }}
        >
          <label htmlFor="assign-to" className="text-slate-600">
            Assigned to {client.assigned ? client.assigned.name || client.assigned.email : 'nobody'}
          </label>
          <Select
            id="assign-to"
            className="h-8 w-auto max-w-56"
            value={assignTo}
            onChange={(e) => setAssignTo(e.target.value)}
            aria-label="Assign to"
          >
            <option value="" disabled>
              Assign to…
            </option>
            <option value={ROUND_ROBIN}>Next in turn (round-robin)</option>
            {members.data?.map((m) => (
              <option key={m.id} value={m.email}>
                {m.name ? `${m.name} (${m.email})` : m.email}
              </option>
            ))}
          </Select>
          <Button type="submit" size="sm" variant="secondary" disabled={!assignTo || assign.isPending}>
            Assign
          </Button>
        </form>
        {actionError ? <Alert tone="error">{actionError}</Alert> : null}
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
        {conversation.data.hasOlder ? (
          <p className="pb-2 text-center text-xs text-slate-500">
            Older messages are on the client's profile.
          </p>
        ) : null}
        <MessageList messages={messages} clientName={client.displayName} />
        <ButtonsNow messages={messages} currentBlockId={client.currentBlockId} />
        <div ref={bottom} />
      </div>
      <form onSubmit={send} className="space-y-2 border-t border-slate-200 bg-white p-3">
        {reply.data && !reply.data.delivered ? (
          <Alert tone="error">
            Not delivered: {reply.data.error}. The reply is kept in the conversation, marked as not delivered.
          </Alert>
        ) : null}
        {reply.error ? <Alert tone="error">{reply.error.message}</Alert> : null}
        <div className="flex items-end gap-2">
          <Textarea
            aria-label="Reply"
            placeholder="Type a reply… (Enter sends, Shift+Enter for a new line)"
            rows={2}
            maxLength={REPLY_LIMIT}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            className="min-h-10 flex-1 resize-y"
          />
          <Button type="submit" disabled={!text.trim() || reply.isPending}>
            Send
          </Button>
        </div>
        {client.paused ? null : (
          <p className="text-xs text-slate-500">
            The bot is active: it also answers the client's next message. Pause it to take over.
          </p>
        )}
      </form>
    </div>
  );
}
