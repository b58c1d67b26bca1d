'use client';

import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Field } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { formErrors } from '@/components/ui/form-errors';
import { Input } from '@/components/ui/input';
import type { SimulatorEdition } from '@/lib/simulator/editions';

const FIELDS = ['name', 'phone', 'email', 'language'] as const;
type Profile = Record<(typeof FIELDS)[number], string>;

/**
 * Who the simulator's test client is (server/channels/simulator testClientInput): the name
 * `#{name}` reads and the profile variables `client.phone`, `client.email`, `client.language`.
 */
export function TestClientForm({
  projectId,
  edition,
  current,
  onSaved,
  onClose,
}: {
  projectId: number;
  edition: SimulatorEdition;
  current: Profile;
  onSaved(): unknown;
  onClose(): void;
}) {
  const trpc = useTRPC();
  const [form, setForm] = useState(current);
  const save = useMutation(
    trpc.simulator.setClient.mutationOptions({
      onSuccess: async () => {
        await onSaved();
        onClose();
      },
    }),
  );
  const errors = formErrors(save.error, '', FIELDS);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ projectId, edition, ...form });
  };
  const field = (name: (typeof FIELDS)[number], label: string, placeholder: string) => (
    <Field id={`test-client-${name}`} label={label} error={errors.of(name)}>
      <Input
        id={`test-client-${name}`}
        value={form[name]}
        placeholder={placeholder}
        onChange={(e) => setForm({ ...form, [name]: e.target.value })}
      />
    </Field>
  );
  return (
    <form
      onSubmit={submit}
      aria-label="Test client"
      className="space-y-2 border-b border-slate-200 bg-slate-50 px-3 py-2"
    >
      <p className="text-xs text-slate-500">
        Who the bot talks to here: <code>#{'{name}'}</code> reads the name; the others are the profile
        variables <code>client.phone</code>, <code>client.email</code> and <code>client.language</code>.
      </p>
      <div className="grid grid-cols-2 gap-2">
        {field('name', 'Name', 'Ann Lee')}
        {field('phone', 'Phone', '+49 30 1234567')}
        {field('email', 'E-mail', 'ann@example.com')}
        {field('language', 'Language', 'en')}
      </div>
      <FormActions error={errors.rest} pending={save.isPending} submit="Save" onCancel={onClose} />
    </form>
  );
}
