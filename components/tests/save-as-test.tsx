'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FlaskConical } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Button } from '@/components/ui/button';
import { FormActions } from '@/components/ui/form-actions';
import { Input } from '@/components/ui/input';
import type { ConversationTest } from '@/lib/conversation-tests/test-case';
import { small } from './form-parts';

/**
 * The simulator's "Save as test" (docs/conversation-tests.md, "In the builder"): the draft's
 * conversation so far becomes a test (its messages as steps, what the bot answered as what it
 * must answer, its requests and AI calls as stubs), opened in the Tests panel's form.
 */
export function SaveAsTest({
  projectId,
  disabled,
  onRecorded,
}: {
  projectId: number;
  /** Nothing to record yet (no conversation), or not the draft's. */
  disabled: string | null;
  onRecorded(test: ConversationTest): void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [name, setName] = useState('');
  const record = useMutation(
    trpc.tests.record.mutationOptions({
      onSuccess: (test) => {
        void queryClient.invalidateQueries({ queryKey: trpc.tests.list.queryKey({ projectId }) });
        setAsking(false);
        setName('');
        onRecorded(test);
      },
    }),
  );
  if (!asking)
    return (
      <Button
        variant="ghost"
        size="sm"
        disabled={!!disabled}
        title={disabled ?? 'Save this conversation as a test the bot must keep passing'}
        onClick={() => setAsking(true)}
      >
        <FlaskConical className="size-3.5" aria-hidden />
        Save as test
      </Button>
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    record.mutate({ projectId, name });
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Save as test"
      className="basis-full space-y-2 border-t border-slate-100 pt-2 text-xs"
    >
      <p className="text-slate-600">
        The conversation so far becomes a test: your messages are its steps, the bot's answers what it must
        answer.
      </p>
      <Input
        className={small}
        aria-label="Test name"
        placeholder="e.g. Ordering the plan"
        value={name}
        autoFocus
        onChange={(e) => setName(e.target.value)}
      />
      <FormActions
        error={record.error}
        pending={record.isPending}
        submit="Save test"
        onCancel={() => setAsking(false)}
      />
    </form>
  );
}
