'use client';

import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { formErrors } from '@/components/ui/form-errors';
import { Input, Select, Textarea } from '@/components/ui/input';
import { type AssistantSettingsInput, assistantSettingsSchema } from '@/lib/ai/assistant';

type Assistant = { id: number; settings: AssistantSettingsInput };

const PRESETS = [
  { key: 'brief', label: 'Answer briefly' },
  { key: 'onTopic', label: 'Never discuss other topics' },
  { key: 'resistInjection', label: 'Resist prompt injection (keep its instructions private)' },
] as const;

/**
 * The project's assistants: they answer what no start condition, arrow or not_state block did,
 * the first by priority whose launch condition holds.
 */
export function AssistantsCard({
  projectId,
  assistants,
  providers,
  onChange,
}: {
  projectId: number;
  assistants: Assistant[];
  providers: string[];
  onChange: () => void;
}) {
  const trpc = useTRPC();
  const [editing, setEditing] = useState<{ id: number | null; settings: AssistantSettingsInput } | null>(
    null,
  );
  const remove = useMutation(trpc.ai.deleteAssistant.mutationOptions({ onSuccess: onChange }));
  return (
    <Card>
      <CardTitle description="An assistant answers a client's message that nothing else did: after the start conditions, the block's arrows and the not_state blocks. It can hand the conversation to an operator when unsure or asked for a person.">
        Assistants
      </CardTitle>
      {assistants.length === 0 && !editing ? (
        <p className="mb-3 text-sm text-slate-500">
          No assistant yet: messages no block answers stay unanswered.
        </p>
      ) : null}
      <ul className="mb-3 divide-y divide-slate-100">
        {assistants.map((a) => (
          <li key={a.id} className="flex flex-wrap items-center gap-2 py-2">
            <span className="font-medium text-slate-900">{a.settings.name}</span>
            {a.settings.enabled === false ? <Badge>off</Badge> : null}
            <span className="text-sm text-slate-500">
              priority {a.settings.priority ?? 0}
              {a.settings.condition ? `, when ${a.settings.condition}` : ', always'}
              {a.settings.provider ? `, provider ${a.settings.provider}` : ''}
            </span>
            <span className="ml-auto flex gap-1">
              <Button
                size="sm"
                variant="secondary"
                onClick={() => setEditing({ id: a.id, settings: a.settings })}
              >
                Edit
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  if (window.confirm(`Delete the assistant ${a.settings.name}?`))
                    remove.mutate({ projectId, id: a.id });
                }}
              >
                Delete
              </Button>
            </span>
          </li>
        ))}
      </ul>
      {remove.error ? <Alert tone="error">{remove.error.message}</Alert> : null}
      {editing ? (
        <AssistantForm
          projectId={projectId}
          id={editing.id}
          initial={editing.settings}
          providers={providers}
          onDone={() => {
            setEditing(null);
            onChange();
          }}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <Button
          variant="secondary"
          onClick={() =>
            setEditing({ id: null, settings: assistantSettingsSchema.parse({ name: 'Assistant' }) })
          }
        >
          Add assistant
        </Button>
      )}
    </Card>
  );
}

function AssistantForm({
  projectId,
  id,
  initial,
  providers,
  onDone,
  onCancel,
}: {
  projectId: number;
  id: number | null;
  initial: AssistantSettingsInput;
  providers: string[];
  onDone: () => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const [form, setForm] = useState(() => assistantSettingsSchema.parse(initial));
  const save = useMutation(trpc.ai.saveAssistant.mutationOptions({ onSuccess: onDone }));
  const errors = formErrors(save.error, 'settings.', Object.keys(form));
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ projectId, id, settings: form });
  };
  return (
    <form
      onSubmit={submit}
      className="space-y-3 rounded-md border border-slate-200 p-4"
      aria-label="Assistant"
    >
      <div className="grid gap-3 sm:grid-cols-3">
        <Field id="assistant-name" error={errors.of('name')} label="Name">
          <Input id="assistant-name" value={form.name} onChange={(e) => set('name', e.target.value)} />
        </Field>
        <Field id="assistant-provider" error={errors.of('provider')} label="Provider">
          <Select
            id="assistant-provider"
            value={form.provider}
            onChange={(e) => set('provider', e.target.value)}
          >
            <option value="">The default provider</option>
            {providers.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          id="assistant-priority"
          error={errors.of('priority')}
          label="Priority"
          hint="Higher answers first."
        >
          <Input
            id="assistant-priority"
            type="number"
            value={form.priority}
            onChange={(e) => set('priority', Number(e.target.value))}
          />
        </Field>
      </div>
      <Field
        id="assistant-role"
        error={errors.of('role')}
        label="Role"
        hint="Who the assistant is and what it does for the business, e.g. “You are the shop’s assistant. You help with orders, delivery and returns.”"
      >
        <Textarea
          id="assistant-role"
          rows={4}
          value={form.role}
          onChange={(e) => set('role', e.target.value)}
        />
      </Field>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-slate-700">Presets</legend>
        {PRESETS.map(({ key, label }) => (
          <label key={key} className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={form.presets[key]}
              onChange={(e) => set('presets', { ...form.presets, [key]: e.target.checked })}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <Field
        id="assistant-condition"
        error={errors.of('condition')}
        label="Launch condition (optional)"
        hint="A formula like an arrow's comparison, e.g. vip == 'yes'; empty: always."
      >
        <Input
          id="assistant-condition"
          value={form.condition}
          onChange={(e) => set('condition', e.target.value)}
        />
      </Field>
      <div className="grid gap-3 sm:grid-cols-4">
        <Field id="assistant-history" error={errors.of('history')} label="Messages of history">
          <Input
            id="assistant-history"
            type="number"
            min={0}
            max={50}
            value={form.history}
            onChange={(e) => set('history', Number(e.target.value))}
          />
        </Field>
        <Field id="assistant-temperature" error={errors.of('temperature')} label="Temperature">
          <Input
            id="assistant-temperature"
            type="number"
            min={0}
            max={2}
            step={0.1}
            value={form.temperature}
            onChange={(e) => set('temperature', Number(e.target.value))}
          />
        </Field>
        <Field id="assistant-tokens" error={errors.of('maxTokens')} label="Max tokens">
          <Input
            id="assistant-tokens"
            type="number"
            min={1}
            value={form.maxTokens}
            onChange={(e) => set('maxTokens', Number(e.target.value))}
          />
        </Field>
        <Field
          id="assistant-fallback"
          error={errors.of('fallbackBlockId')}
          label="Fallback block id"
          hint="When it cannot answer."
        >
          <Input
            id="assistant-fallback"
            type="number"
            min={1}
            value={form.fallbackBlockId ?? ''}
            onChange={(e) => set('fallbackBlockId', e.target.value ? Number(e.target.value) : null)}
          />
        </Field>
      </div>
      <div className="flex flex-wrap gap-4 text-sm text-slate-700">
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={form.enabled} onChange={(e) => set('enabled', e.target.checked)} />
          Enabled
        </label>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={form.useKnowledge}
            onChange={(e) => set('useKnowledge', e.target.checked)}
          />
          Answer from the knowledge base
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={form.handoff} onChange={(e) => set('handoff', e.target.checked)} />
          Hand over to an operator when unsure or asked
        </label>
      </div>
      <FormActions error={errors.rest} pending={save.isPending} submit="Save assistant" onCancel={onCancel} />
    </form>
  );
}
