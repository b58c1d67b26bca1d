'use client';

import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';

const FIELDS = [
  {
    key: 'phoneNumberId',
    label: 'Phone number ID',
    hint: 'WhatsApp Manager → API Setup: the ID under the number, not the number itself.',
  },
  { key: 'businessAccountId', label: 'WhatsApp Business Account ID', hint: 'WhatsApp Manager → API Setup.' },
  {
    key: 'accessToken',
    label: 'Access token',
    hint: 'A system user’s permanent token with whatsapp_business_messaging (Business Settings → System users).',
  },
  { key: 'appSecret', label: 'App secret', hint: 'Your Meta app → App settings → Basic → App secret.' },
] as const;

type Key = (typeof FIELDS)[number]['key'];
const EMPTY: Record<Key, string> = {
  phoneNumberId: '',
  businessAccountId: '',
  accessToken: '',
  appSecret: '',
};

/** The form that connects a chat-app number through the Cloud API; then where Meta must call. */
export function ChatappConnect({
  projectId,
  onConnected,
}: {
  projectId: number;
  onConnected: () => unknown;
}) {
  const trpc = useTRPC();
  const [form, setForm] = useState(EMPTY);
  const connect = useMutation(
    trpc.channels.connectChatappCloud.mutationOptions({
      onSuccess: () => {
        setForm(EMPTY);
        return onConnected();
      },
    }),
  );
  const errorField = connect.error?.data?.field ?? null;
  const fieldErrors = connect.error?.data?.fieldErrors as Partial<Record<Key, string[]>> | undefined;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    connect.mutate({ projectId, ...form });
  }

  return (
    <Card>
      <CardTitle description="The WhatsApp Cloud API, Meta’s official API. The token and the app secret are checked, stored encrypted and never shown again.">
        Connect a chat-app number
      </CardTitle>
      <form className="space-y-3" onSubmit={onSubmit} aria-label="Connect a chat-app number">
        {FIELDS.map((f) => (
          <Field
            key={f.key}
            id={`chatapp-${f.key}`}
            label={f.label}
            hint={f.hint}
            error={
              fieldErrors?.[f.key]?.[0] ?? (errorField === f.key ? (connect.error?.message ?? null) : null)
            }
          >
            <Input
              id={`chatapp-${f.key}`}
              value={form[f.key]}
              type={f.key === 'accessToken' || f.key === 'appSecret' ? 'password' : 'text'}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => setForm((v) => ({ ...v, [f.key]: e.target.value }))}
            />
          </Field>
        ))}
        {connect.error && !errorField && !fieldErrors ? (
          <Alert tone="error">{connect.error.message}</Alert>
        ) : null}
        <Button type="submit" disabled={connect.isPending || FIELDS.some((f) => !form[f.key].trim())}>
          {connect.isPending ? 'Connecting…' : 'Connect the number'}
        </Button>
      </form>
      {connect.data ? (
        <div
          className="mt-4 space-y-2 rounded-md bg-emerald-50 p-3 text-sm"
          data-testid="chatapp-webhook-setup"
        >
          <p className="font-medium text-emerald-900">
            +{connect.data.groupId} is connected. Last step: in your Meta app, WhatsApp → Configuration →
            Webhook, paste these two values, verify, and subscribe to the <code>messages</code> field.
          </p>
          <Copyable label="Callback URL" value={connect.data.webhook.url} testId="chatapp-callback-url" />
          <Copyable
            label="Verify token (shown only now)"
            value={connect.data.webhook.verifyToken}
            testId="chatapp-verify-token"
          />
        </div>
      ) : null}
    </Card>
  );
}

function Copyable({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="space-y-1">
      <p className="text-xs font-medium text-slate-700">{label}</p>
      <div className="flex items-start gap-2">
        <code className="block flex-1 break-all rounded bg-white p-2 text-xs" data-testid={testId}>
          {value}
        </code>
        <CopyButton value={value} />
      </div>
    </div>
  );
}

interface WindowTemplate {
  name: string;
  language: string;
  parameters: string[];
}

/** A connected number's details and its window template (for managers). */
export function ChatappNumber({
  projectId,
  channelId,
  chatapp,
  canManage,
  onSaved,
}: {
  projectId: number;
  channelId: number;
  chatapp: { phoneNumberId: string; webhookUrl: string; windowTemplate: WindowTemplate | null };
  canManage: boolean;
  onSaved: () => unknown;
}) {
  const trpc = useTRPC();
  const saved = chatapp.windowTemplate;
  const [form, setForm] = useState({
    name: saved?.name ?? '',
    language: saved?.language ?? 'en_US',
    parameters: (saved?.parameters ?? ['{message}']).join('\n'),
  });
  const save = useMutation(trpc.channels.updateChatapp.mutationOptions({ onSuccess: onSaved }));
  const id = (name: string) => `chatapp-${channelId}-${name}`;
  const issues = save.error?.data?.issues;
  const errorOf = (key: string) =>
    issues?.find((i) => i.path.startsWith(`windowTemplate.${key}`))?.message ?? null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    save.mutate({
      projectId,
      channelId,
      windowTemplate: form.name.trim()
        ? {
            name: form.name.trim(),
            language: form.language.trim(),
            parameters: form.parameters.split('\n').filter((p) => p.trim()),
          }
        : null,
    });
  }

  return (
    <div className="space-y-3">
      <p className="text-slate-500">
        Phone number ID {chatapp.phoneNumberId} · webhook{' '}
        <code className="break-all">{chatapp.webhookUrl}</code>
      </p>
      {canManage ? (
        <form className="grid gap-3 sm:grid-cols-2" onSubmit={onSubmit} aria-label="Window template">
          <p className="text-slate-600 sm:col-span-2">
            A client who has not written for 24 hours can only get an approved template message. Name one to
            send instead of the bot’s message then; leave the name empty to record such messages as not
            delivered.
          </p>
          <Field id={id('name')} label="Template name" error={errorOf('name')}>
            <Input
              id={id('name')}
              value={form.name}
              placeholder="order_update"
              onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))}
            />
          </Field>
          <Field id={id('language')} label="Language code" error={errorOf('language')}>
            <Input
              id={id('language')}
              value={form.language}
              onChange={(e) => setForm((f) => ({ ...f, language: e.target.value }))}
            />
          </Field>
          <div className="sm:col-span-2">
            <Field
              id={id('parameters')}
              label="Body parameters, one a line"
              hint="{message} is the bot’s message, {name} the client’s name; other text is sent as written."
              error={errorOf('parameters')}
            >
              <Textarea
                id={id('parameters')}
                rows={2}
                value={form.parameters}
                onChange={(e) => setForm((f) => ({ ...f, parameters: e.target.value }))}
              />
            </Field>
          </div>
          {save.error && !issues ? <Alert tone="error">{save.error.message}</Alert> : null}
          <div className="flex items-center gap-3 sm:col-span-2">
            <Button type="submit" variant="secondary" size="sm" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save template'}
            </Button>
            {save.isSuccess ? <span className="text-emerald-700">Saved.</span> : null}
          </div>
        </form>
      ) : saved ? (
        <p className="text-slate-600">
          Outside the 24-hour window: template {saved.name} ({saved.language}).
        </p>
      ) : null}
    </div>
  );
}
