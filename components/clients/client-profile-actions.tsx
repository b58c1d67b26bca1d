'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/input';

const DELETE_REASON = "Only the project's owner or an admin can delete a client.";

/**
 * What can be done to a client: send it to a block (the block runs and the client moves in, as
 * with the API's `message` and `message_id`), reset its dialogue, delete it (owners and admins).
 */
export function ClientProfileActions({
  projectId,
  clientId,
  canDelete,
  onChanged,
}: {
  projectId: number;
  clientId: number;
  canDelete: boolean;
  onChanged(): Promise<unknown>;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const bot = useQuery(trpc.botSchema.get.queryOptions({ projectId }));
  const blocks = bot.data?.schema.blocks.filter((b) => b.kind !== 'comment') ?? [];
  const [blockId, setBlockId] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'reset' | 'delete' | null>(null);
  const send = useMutation(
    trpc.clients.sendToBlock.mutationOptions({
      onSuccess: async (result) => {
        setNotice(`Sent to the block: ${result.sent} message${result.sent === 1 ? '' : 's'} went out.`);
        await onChanged();
      },
    }),
  );
  const reset = useMutation(
    trpc.clients.reset.mutationOptions({
      onSuccess: async () => {
        setConfirming(null);
        setNotice('The dialogue was reset: the next message starts the bot again.');
        await onChanged();
      },
    }),
  );
  const remove = useMutation(
    trpc.clients.delete.mutationOptions({
      onSuccess: () => router.push(`/projects/${projectId}/clients`),
    }),
  );
  const error = send.error ?? reset.error ?? remove.error;
  const onSend = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    if (blockId) send.mutate({ projectId, clientId, blockId: Number(blockId) });
  };

  return (
    <div className="space-y-3">
      <form onSubmit={onSend} className="flex gap-1.5" aria-label="Send to a block">
        <Select
          aria-label="Block to send the client to"
          value={blockId}
          onChange={(e) => setBlockId(e.target.value)}
          disabled={!blocks.length}
        >
          <option value="">{bot.data && !blocks.length ? 'The bot has no blocks' : 'Choose a block…'}</option>
          {blocks.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name || `Block ${b.id}`} (#{b.id})
            </option>
          ))}
        </Select>
        <Button type="submit" disabled={!blockId || send.isPending}>
          {send.isPending ? 'Sending…' : 'Send'}
        </Button>
      </form>
      <div className="flex flex-wrap gap-1.5">
        {confirming === 'reset' ? (
          <>
            <Button
              variant="danger"
              size="sm"
              disabled={reset.isPending}
              onClick={() => reset.mutate({ projectId, clientId })}
            >
              Yes, reset the dialogue
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
          </>
        ) : confirming === 'delete' ? (
          <>
            <Button
              variant="danger"
              size="sm"
              disabled={remove.isPending}
              onClick={() => remove.mutate({ projectId, clientId })}
            >
              Yes, delete the client and its history
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" size="sm" onClick={() => setConfirming('reset')}>
              Reset dialogue
            </Button>
            <Button
              variant="secondary"
              size="sm"
              className="text-red-700"
              disabled={!canDelete}
              title={canDelete ? undefined : DELETE_REASON}
              onClick={() => setConfirming('delete')}
            >
              Delete client
            </Button>
          </>
        )}
      </div>
      {confirming === 'reset' ? (
        <p className="text-xs text-slate-600">
          The client leaves its block, the open deal is closed with its variables cleared, and pending timers
          are cancelled. The history and the client&apos;s own variables stay.
        </p>
      ) : null}
      {!canDelete ? <p className="text-xs text-slate-500">{DELETE_REASON}</p> : null}
      {error ? <Alert tone="error">{error.message}</Alert> : null}
      {notice && !error ? <Alert tone="success">{notice}</Alert> : null}
    </div>
  );
}
