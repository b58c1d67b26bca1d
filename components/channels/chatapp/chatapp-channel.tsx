'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { connectCloudInput, connectGatewayInput } from '@/lib/channels/connect-inputs';
import { resultOf } from '@/lib/channels/operation-result';
import type { connectCloudChannel } from '@/server/channels/chatapp/channel-service';
import type { gatewayPairing } from '@/server/channels/chatapp/gateway-service';
import { ConnectForm, useConnectValues } from '../connect-form';
import { Copyable } from '../copyable';

/** The form that connects a chat-app number through the Cloud API; then where Meta must call. */
function ChatappConnect({ projectId, onConnected }: { projectId: number; onConnected: () => unknown }) {
  const trpc = useTRPC();
  const form = useConnectValues(connectCloudInput);
  const connect = useMutation(
    trpc.channels.connect.mutationOptions({
      onSuccess: () => {
        form.reset();
        return onConnected();
      },
    }),
  );
  const connected = resultOf<typeof connectCloudChannel>(connect.data);
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        The WhatsApp Cloud API, Meta’s official API. The token and the app secret are checked, stored
        encrypted and never shown again.
      </p>
      <ConnectForm
        name="Connect a chat-app number"
        idPrefix="chatapp"
        schema={connectCloudInput}
        values={form.values}
        setValues={form.setValues}
        onSubmit={() => connect.mutate({ projectId, kind: 'chatapp', provider: 'cloud', ...form.input })}
        pending={connect.isPending}
        error={connect.error}
        submitLabel="Connect the number"
      />
      {connected ? (
        <div
          className="mt-4 space-y-2 rounded-md bg-emerald-50 p-3 text-sm"
          data-testid="chatapp-webhook-setup"
        >
          <p className="font-medium text-emerald-900">
            +{connected.groupId} is connected. Last step: in your Meta app, WhatsApp → Configuration →
            Webhook, paste these two values, verify, and subscribe to the <code>messages</code> field.
          </p>
          <Copyable label="Callback URL" value={connected.webhook.url} testId="chatapp-callback-url" />
          <Copyable
            label="Verify token (shown only now)"
            value={connected.webhook.verifyToken}
            testId="chatapp-verify-token"
          />
        </div>
      ) : null}
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
  const save = useMutation(trpc.channels.update.mutationOptions({ onSuccess: onSaved }));
  const id = (name: string) => `chatapp-${channelId}-${name}`;
  const issues = save.error?.data?.issues;
  const errorOf = (key: string) =>
    issues?.find((i) => i.path.startsWith(`windowTemplate.${key}`))?.message ?? null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    save.mutate({
      projectId,
      kind: 'chatapp',
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

/** The form that connects a number through a self-hosted WhatsApp Web session gateway (WAHA). */
function ChatappGatewayConnect({
  projectId,
  onConnected,
}: {
  projectId: number;
  onConnected: () => unknown;
}) {
  const trpc = useTRPC();
  const form = useConnectValues(connectGatewayInput);
  const connect = useMutation(
    trpc.channels.connect.mutationOptions({
      onSuccess: () => {
        form.reset();
        return onConnected();
      },
    }),
  );
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        A WhatsApp Web session on your own WAHA server, paired by scanning a QR code with the phone: any
        number, no Meta business account. The API key is stored encrypted and never shown again.
      </p>
      <ConnectForm
        name="Connect a session gateway"
        idPrefix="gateway"
        schema={connectGatewayInput}
        values={form.values}
        setValues={form.setValues}
        onSubmit={() => connect.mutate({ projectId, kind: 'chatapp', provider: 'gateway', ...form.input })}
        pending={connect.isPending}
        error={connect.error}
        submitLabel="Connect the session"
      />
    </div>
  );
}

/** Connecting a chat-app number, one of two ways: the Cloud API, or a session gateway. */
export function ChatappConnectCard({
  projectId,
  onConnected,
}: {
  projectId: number;
  onConnected: () => unknown;
}) {
  const [way, setWay] = useState<'cloud' | 'gateway'>('cloud');
  const choice = (value: typeof way, label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={way === value}
      onClick={() => setWay(value)}
      className={`rounded-md px-3 py-1.5 text-sm ${way === value ? 'bg-blue-50 font-medium text-blue-800' : 'text-slate-600 hover:bg-slate-50'}`}
    >
      {label}
    </button>
  );
  return (
    <Card>
      <CardTitle>Connect a chat-app number</CardTitle>
      <div role="tablist" aria-label="How to connect" className="mb-3 flex gap-2">
        {choice('cloud', 'Cloud API')}
        {choice('gateway', 'Session gateway (QR code)')}
      </div>
      {way === 'cloud' ? (
        <ChatappConnect projectId={projectId} onConnected={onConnected} />
      ) : (
        <ChatappGatewayConnect projectId={projectId} onConnected={onConnected} />
      )}
    </Card>
  );
}

const STATE_TEXT: Record<string, string> = {
  STARTING: 'Starting…',
  SCAN_QR_CODE: 'Waiting for the phone: scan this code in WhatsApp → Linked devices → Link a device.',
  PASSKEY_REQUIRED: 'WhatsApp asks for a passkey on the phone to finish pairing.',
  PASSKEY_CONFIRMATION_REQUIRED: 'Confirm the code on the phone to finish pairing.',
  WORKING: 'Paired and working.',
  FAILED:
    'The session failed: the phone was unlinked or offline too long. Restart it, then pair again if asked.',
  STOPPED: 'The session is stopped on the gateway.',
};

/** A gateway session: its state, the QR code to scan while it waits for one, and a restart. */
export function ChatappGatewaySession({
  projectId,
  channelId,
  gateway,
  canManage,
  onChanged,
}: {
  projectId: number;
  channelId: number;
  gateway: { url: string; session: string; status: number };
  canManage: boolean;
  onChanged: () => unknown;
}) {
  const trpc = useTRPC();
  const working = gateway.status === 1;
  // Polled while not paired: the QR code changes every 20 seconds or so.
  const pairing = useQuery(
    trpc.channels.query.queryOptions(
      { projectId, kind: 'chatapp', operation: 'pairing', channelId },
      {
        enabled: canManage,
        refetchInterval: (q) =>
          resultOf<typeof gatewayPairing>(q.state.data)?.state === 'WORKING' ? 30_000 : 3000,
      },
    ),
  );
  const restart = useMutation(trpc.channels.act.mutationOptions({ onSuccess: onChanged }));
  const session = resultOf<typeof gatewayPairing>(pairing.data);
  const state = session?.state;
  const paired = state === 'WORKING';
  // Paired meanwhile: the list re-reads the channel (its number is the group_id now).
  useEffect(() => {
    if (paired && !working) void onChanged();
  }, [paired, working, onChanged]);
  return (
    <div className="space-y-2" data-testid="gateway-session">
      <p className="text-slate-500">
        Session “{gateway.session}” of the gateway at <code className="break-all">{gateway.url}</code>
      </p>
      {state ? (
        <p className={state === 'FAILED' ? 'text-red-700' : 'text-slate-700'} data-testid="gateway-state">
          {STATE_TEXT[state] ?? `The gateway says the session is ${state}.`}
        </p>
      ) : null}
      {session?.error ? <Alert tone="error">{session.error}</Alert> : null}
      {session?.qr ? (
        // biome-ignore lint/performance/noImgElement: a data URL the gateway made, not an optimisable asset
        <img
          src={session.qr}
          alt="QR code to pair the phone"
          className="h-56 w-56 rounded border border-slate-200 bg-white p-2 [image-rendering:pixelated]"
          data-testid="gateway-qr"
        />
      ) : null}
      {canManage && (state === 'FAILED' || state === 'STOPPED' || state === 'SCAN_QR_CODE') ? (
        <Button
          variant="secondary"
          size="sm"
          disabled={restart.isPending}
          onClick={() => restart.mutate({ projectId, kind: 'chatapp', operation: 'restart', channelId })}
        >
          {restart.isPending ? 'Restarting…' : 'Restart the session'}
        </Button>
      ) : null}
      {restart.error ? <Alert tone="error">{restart.error.message}</Alert> : null}
    </div>
  );
}
