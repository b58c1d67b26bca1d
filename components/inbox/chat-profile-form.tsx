'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { formErrors } from '@/components/ui/form-errors';
import { Input } from '@/components/ui/input';

/**
 * "Clients see you as …": the member's own name and photo beside their replies in the chat
 * widget (server/projects/chat-profile.ts), changed in place under the conversation list.
 */
export function ChatProfileForm({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const profile = useQuery(trpc.team.chatProfile.queryOptions({ projectId }));
  const [form, setForm] = useState<{ name: string; avatarUrl: string } | null>(null);
  const save = useMutation(
    trpc.team.setChatProfile.mutationOptions({
      onSuccess: async () => {
        setForm(null);
        await queryClient.invalidateQueries({ queryKey: trpc.team.chatProfile.queryKey({ projectId }) });
      },
    }),
  );
  if (!profile.data) return null;
  const errors = formErrors(save.error, '', ['name', 'avatarUrl']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form) save.mutate({ projectId, ...form });
  };

  if (!form)
    return (
      <div className="flex items-center gap-2 border-t border-slate-200 px-3 py-2 text-xs text-slate-600">
        {profile.data.avatarUrl ? (
          // biome-ignore lint/performance/noImgElement: a member's own address, any host
          <img src={profile.data.avatarUrl} alt="" className="size-5 rounded-full object-cover" />
        ) : null}
        <span className="min-w-0 flex-1 truncate" data-testid="chat-profile">
          Clients see you as <strong>{profile.data.name || 'Operator'}</strong>
        </span>
        <Button variant="ghost" size="sm" onClick={() => setForm(profile.data)}>
          Change
        </Button>
      </div>
    );
  return (
    <form
      onSubmit={submit}
      className="space-y-2 border-t border-slate-200 p-3"
      aria-label="How clients see you"
    >
      <Field id="chat-profile-name" label="Your name in clients' chats" error={errors.of('name')}>
        <Input
          id="chat-profile-name"
          value={form.name}
          maxLength={100}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
        />
      </Field>
      <Field
        id="chat-profile-photo"
        label="Photo address (optional)"
        hint="Shown beside your replies in the chat widget."
        error={errors.of('avatarUrl')}
      >
        <Input
          id="chat-profile-photo"
          value={form.avatarUrl}
          placeholder="https://example.com/me.png"
          onChange={(e) => setForm({ ...form, avatarUrl: e.target.value })}
        />
      </Field>
      <FormActions
        error={errors.rest}
        pending={save.isPending}
        submit="Save"
        onCancel={() => setForm(null)}
      />
    </form>
  );
}
