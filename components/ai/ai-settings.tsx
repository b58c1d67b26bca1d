'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { formErrors } from '@/components/ui/form-errors';
import { Input, Select } from '@/components/ui/input';
import type { ProviderSettingsInput } from '@/lib/ai/provider-settings';
import { countFormat } from '@/lib/number-format';
import { AssistantsCard } from './assistants-card';

const EMPTY_PROVIDER: ProviderSettingsInput = {
  name: '',
  baseUrl: 'https://api.openai.com/v1',
  chatModel: 'gpt-4o-mini',
  embeddingModel: 'text-embedding-3-small',
  embeddingDimensions: null,
  apiKeySecret: 'OPENAI_API_KEY',
  timeoutSeconds: 60,
  requestsPerMinute: 0,
  tokenParameter: 'auto',
  temperature: 'auto',
  isDefault: false,
};

/** Settings, AI (docs/ai.md): providers, assistants, the daily limit and what was spent. */
export function AiSettings({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.ai.settings.queryOptions({ projectId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.ai.settings.queryKey({ projectId }) });

  if (settings.error) return <Alert tone="error">{settings.error.message}</Alert>;
  if (!settings.data) return <p className="p-6 text-sm text-slate-500">Loading…</p>;
  const data = settings.data;
  return (
    <div className="mx-auto max-w-4xl space-y-6 p-6">
      {data.plan !== 'ai' ? (
        <Alert>
          AI features need the AI plan; this project is on the {data.plan} plan. Change it in Settings,
          General: until then blocks' AI steps and the assistant log why they did not answer, and go to their
          fallback block.
        </Alert>
      ) : null}
      <ProvidersCard projectId={projectId} providers={data.providers} onChange={refresh} />
      <AssistantsCard
        projectId={projectId}
        assistants={data.assistants}
        providers={data.providers.map((p) => p.name)}
        onChange={refresh}
      />
      <UsageCard projectId={projectId} limit={data.dailyTokenLimit} usage={data.usage} onChange={refresh} />
    </div>
  );
}

type Provider = ProviderSettingsInput & { id: number };

function ProvidersCard({
  projectId,
  providers,
  onChange,
}: {
  projectId: number;
  providers: Provider[];
  onChange: () => void;
}) {
  const trpc = useTRPC();
  const [editing, setEditing] = useState<{ id: number | null; settings: ProviderSettingsInput } | null>(null);
  const [tested, setTested] = useState<Record<number, string>>({});
  const remove = useMutation(trpc.ai.deleteProvider.mutationOptions({ onSuccess: onChange }));
  const test = useMutation(
    trpc.ai.testProvider.mutationOptions({
      onSuccess: (result, { id }) =>
        setTested((t) => ({
          ...t,
          [id]: [
            `Chat: ${result.chat.ok ? 'ok' : 'failed'}: ${result.chat.message}`,
            result.embeddings
              ? `Embeddings: ${result.embeddings.ok ? 'ok' : 'failed'}: ${result.embeddings.message}`
              : 'Embeddings: no embedding model set (the knowledge base needs one)',
          ].join('\n'),
        })),
    }),
  );
  return (
    <Card>
      <CardTitle description="Any OpenAI-compatible endpoint: OpenAI, Azure OpenAI, or a model server you run (Ollama, vLLM, llama.cpp). The API key is a project secret, named here: set its value in Settings, General, Secrets.">
        AI providers
      </CardTitle>
      {providers.length === 0 && !editing ? (
        <p className="mb-3 text-sm text-slate-500">
          No provider yet. Add one to use the AI step in blocks, the assistant and the knowledge base.
        </p>
      ) : null}
      <ul className="mb-3 divide-y divide-slate-100">
        {providers.map((p) => (
          <li key={p.id} className="py-2">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-slate-900">{p.name}</span>
              {p.isDefault ? <Badge>default</Badge> : null}
              <span className="text-sm text-slate-500">
                {p.chatModel} at {p.baseUrl}
                {p.embeddingModel ? `, embeddings ${p.embeddingModel}` : ''}
                {p.apiKeySecret ? `, key #{secret.${p.apiKeySecret}}` : ', no key'}
              </span>
              <span className="ml-auto flex gap-1">
                <Button size="sm" variant="secondary" onClick={() => setEditing({ id: p.id, settings: p })}>
                  Edit
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={test.isPending}
                  onClick={() => test.mutate({ projectId, id: p.id })}
                >
                  Test
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    if (
                      window.confirm(`Delete the AI provider ${p.name}? Blocks that name it stop answering.`)
                    )
                      remove.mutate({ projectId, id: p.id });
                  }}
                >
                  Delete
                </Button>
              </span>
            </div>
            {tested[p.id] ? (
              <div className="mt-2">
                <Alert tone={tested[p.id].includes('failed') ? 'error' : 'success'}>{tested[p.id]}</Alert>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {remove.error ? <Alert tone="error">{remove.error.message}</Alert> : null}
      {editing ? (
        <ProviderForm
          projectId={projectId}
          id={editing.id}
          initial={editing.settings}
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
            setEditing({ id: null, settings: { ...EMPTY_PROVIDER, isDefault: providers.length === 0 } })
          }
        >
          Add provider
        </Button>
      )}
    </Card>
  );
}

function ProviderForm({
  projectId,
  id,
  initial,
  onDone,
  onCancel,
}: {
  projectId: number;
  id: number | null;
  initial: ProviderSettingsInput;
  onDone: () => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const [form, setForm] = useState(initial);
  const save = useMutation(trpc.ai.saveProvider.mutationOptions({ onSuccess: onDone }));
  const errors = formErrors(save.error, 'settings.', Object.keys(EMPTY_PROVIDER));
  const set = <K extends keyof ProviderSettingsInput>(key: K, value: ProviderSettingsInput[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ projectId, id, settings: form });
  };
  return (
    <form
      onSubmit={submit}
      className="space-y-3 rounded-md border border-slate-200 p-4"
      aria-label="AI provider"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          id="provider-name"
          error={errors.of('name')}
          label="Name"
          hint="Blocks and assistants pick a provider by this name."
        >
          <Input id="provider-name" value={form.name} onChange={(e) => set('name', e.target.value)} />
        </Field>
        <Field
          id="provider-url"
          error={errors.of('baseUrl')}
          label="Base URL"
          hint="The API root, up to /v1. Ollama: http://127.0.0.1:11434/v1"
        >
          <Input id="provider-url" value={form.baseUrl} onChange={(e) => set('baseUrl', e.target.value)} />
        </Field>
        <Field id="provider-chat" error={errors.of('chatModel')} label="Chat model">
          <Input
            id="provider-chat"
            value={form.chatModel}
            onChange={(e) => set('chatModel', e.target.value)}
          />
        </Field>
        <Field
          id="provider-embedding"
          error={errors.of('embeddingModel')}
          label="Embedding model (optional)"
          hint="Needed for the knowledge base."
        >
          <Input
            id="provider-embedding"
            value={form.embeddingModel ?? ''}
            onChange={(e) => set('embeddingModel', e.target.value)}
          />
        </Field>
        <Field
          id="provider-key"
          error={errors.of('apiKeySecret')}
          label="API key secret (optional)"
          hint="The name of a project secret; empty for a local server that takes no key."
        >
          <Input
            id="provider-key"
            value={form.apiKeySecret ?? ''}
            onChange={(e) => set('apiKeySecret', e.target.value)}
          />
        </Field>
        <Field
          id="provider-timeout"
          error={errors.of('timeoutSeconds')}
          label="Timeout, seconds"
          hint="5 to 100: a call that takes longer is cut."
        >
          <Input
            id="provider-timeout"
            type="number"
            min={5}
            max={100}
            value={form.timeoutSeconds ?? 60}
            onChange={(e) => set('timeoutSeconds', Number(e.target.value))}
          />
        </Field>
        <Field
          id="provider-rpm"
          error={errors.of('requestsPerMinute')}
          label="Requests a minute"
          hint="The provider's rate limit, or fewer: calls over it wait or take the fallback. 0: no limit."
        >
          <Input
            id="provider-rpm"
            type="number"
            min={0}
            value={form.requestsPerMinute ?? 0}
            onChange={(e) => set('requestsPerMinute', Number(e.target.value))}
          />
        </Field>
        <Field
          id="provider-token-parameter"
          error={errors.of('tokenParameter')}
          label="Token parameter"
          hint="How the answer's max tokens are sent. Automatic: max_completion_tokens to OpenAI's reasoning models (o-series, gpt-5), max_tokens to others, and what a model's refusal teaches is kept for it."
        >
          <Select
            id="provider-token-parameter"
            value={form.tokenParameter ?? 'auto'}
            onChange={(e) => set('tokenParameter', e.target.value as ProviderSettingsInput['tokenParameter'])}
          >
            <option value="auto">Automatic</option>
            <option value="max_tokens">max_tokens</option>
            <option value="max_completion_tokens">max_completion_tokens</option>
          </Select>
        </Field>
        <Field
          id="provider-temperature"
          error={errors.of('temperature')}
          label="Temperature"
          hint="Automatic: sent, except to reasoning models and to a model that refused it."
        >
          <Select
            id="provider-temperature"
            value={form.temperature ?? 'auto'}
            onChange={(e) => set('temperature', e.target.value as ProviderSettingsInput['temperature'])}
          >
            <option value="auto">Automatic</option>
            <option value="send">Send it</option>
            <option value="omit">Never send it</option>
          </Select>
        </Field>
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={form.isDefault ?? false}
          onChange={(e) => set('isDefault', e.target.checked)}
        />
        The project's default provider (used where none is named)
      </label>
      <FormActions error={errors.rest} pending={save.isPending} submit="Save provider" onCancel={onCancel} />
    </form>
  );
}

/** Tokens of calls whose server reported none were counted by Blockbot (docs/ai.md, "Costs and limits"). */
function Estimated({ calls, estimated }: { calls: number; estimated: number }) {
  return (
    <span
      className="ml-2 text-xs text-slate-500"
      title="The AI server reported no token counts for these calls (Ollama, llama.cpp, vLLM): Blockbot counted them with OpenAI's tokenizer."
    >
      {estimated === calls
        ? 'estimated'
        : `${countFormat.format(estimated)} of ${countFormat.format(calls)} calls estimated`}
    </span>
  );
}

function UsageCard({
  projectId,
  limit,
  usage,
  onChange,
}: {
  projectId: number;
  limit: number;
  usage: { day: string; inputTokens: number; outputTokens: number; calls: number; estimatedCalls: number }[];
  onChange: () => void;
}) {
  const trpc = useTRPC();
  const [value, setValue] = useState(String(limit));
  const save = useMutation(trpc.ai.setLimits.mutationOptions({ onSuccess: onChange }));
  return (
    <Card>
      <CardTitle description="Tokens counted per day in the project's time zone. When the limit is reached, AI steps and the assistant stop answering until the next day: the log says so and the client goes to the fallback block.">
        Usage and daily limit
      </CardTitle>
      <form
        className="mb-4 flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ projectId, dailyTokenLimit: Number(value) });
        }}
      >
        <Field id="ai-limit" label="Daily token limit" hint="0: no limit.">
          <Input
            id="ai-limit"
            type="number"
            min={0}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </Field>
        <Button type="submit" variant="secondary" disabled={save.isPending}>
          Save limit
        </Button>
      </form>
      {save.error ? <Alert tone="error">{save.error.message}</Alert> : null}
      {usage.length === 0 ? (
        <p className="text-sm text-slate-500">No AI calls yet.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead className="text-slate-500">
            <tr>
              <th className="py-1 font-medium">Day</th>
              <th className="py-1 font-medium">Calls</th>
              <th className="py-1 font-medium">Input tokens</th>
              <th className="py-1 font-medium">Output tokens</th>
            </tr>
          </thead>
          <tbody>
            {usage.map((u) => (
              <tr key={u.day} className="border-t border-slate-100">
                <td className="py-1">{u.day}</td>
                <td className="py-1">{countFormat.format(u.calls)}</td>
                <td className="py-1">{countFormat.format(u.inputTokens)}</td>
                <td className="py-1">
                  {countFormat.format(u.outputTokens)}
                  {u.estimatedCalls ? <Estimated calls={u.calls} estimated={u.estimatedCalls} /> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
