'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { Input, Select, Textarea } from '@/components/ui/input';
import { SecretsCard } from './secrets-card';

type Constant = { name: string; value: string };
/** What each plan does here: a self-hosted install bills nothing; a plan gates in-flow functions only. */
const PLANS = [
  {
    value: 'free',
    label: 'Free',
    effect:
      'Formulas cannot call in-flow functions: such a call fails when it runs (the formula editor and the Problems list warn where one is written).',
  },
  { value: 'business', label: 'Business', effect: 'Formulas can call every in-flow function.' },
  {
    value: 'ai',
    label: 'AI',
    effect:
      'Formulas can call every in-flow function, and the AI features work: the AI step in blocks, the assistant and the knowledge base (Settings, AI).',
  },
] as const;

export function ProjectSettings({ projectId }: { projectId: number }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const project = useQuery(trpc.project.get.queryOptions({ projectId }));
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.project.get.queryKey({ projectId }) });
    router.refresh();
  };

  const [name, setName] = useState('');
  const [plan, setPlan] = useState<'free' | 'business' | 'ai'>('free');
  const [timeZone, setTimeZone] = useState('UTC');
  const [webhookUrl, setWebhookUrl] = useState('');
  const [webhookTests, setWebhookTests] = useState(false);
  /** The handoff's pause timeout, in hours as managers think of it; stored in minutes. */
  const [pauseHours, setPauseHours] = useState('24');
  /** One origin per line, as the managers edit them. */
  const [allowedOrigins, setAllowedOrigins] = useState('');
  const [constants, setConstants] = useState<Constant[]>([]);
  const [saved, setSaved] = useState(false);
  const [confirmName, setConfirmName] = useState('');

  useEffect(() => {
    if (!project.data) return;
    setName(project.data.name);
    setPlan(project.data.plan);
    setTimeZone(project.data.timeZone);
    setWebhookUrl(project.data.webhookUrl ?? '');
    setWebhookTests(project.data.webhookTestConversations);
    setPauseHours(String(project.data.botPauseMinutes / 60));
    setAllowedOrigins(project.data.apiAllowedOrigins.join('\n'));
    setConstants(project.data.constants.map(({ name, value }) => ({ name, value })));
  }, [project.data]);

  const rename = useMutation(trpc.project.rename.mutationOptions({ onSuccess: refresh }));
  const update = useMutation(
    trpc.project.updateSettings.mutationOptions({
      onSuccess: () => {
        setSaved(true);
        return refresh();
      },
    }),
  );
  const rotate = useMutation(trpc.project.rotateWebhookSecret.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(
    trpc.project.delete.mutationOptions({
      onSuccess: () => {
        router.push('/projects');
        router.refresh();
      },
    }),
  );

  if (project.error)
    return (
      <div className="p-6">
        <Alert tone="error">{project.error.message}</Alert>
      </div>
    );
  if (!project.data) return <p className="p-6 text-sm text-slate-500">Loading…</p>;
  const { webhookSecret } = project.data;
  if (webhookSecret === null)
    return (
      <div className="p-6">
        <Alert tone="info">
          You are an operator of “{project.data.name}”: only its owner or an admin can change its settings,
          see the webhook secret and manage API keys.
        </Alert>
      </div>
    );

  function onSave(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    update.mutate({
      projectId,
      plan,
      timeZone,
      webhookUrl,
      webhookTestConversations: webhookTests,
      botPauseMinutes: Math.round(Number(pauseHours) * 60),
      apiAllowedOrigins: allowedOrigins.split(/[\s,]+/).filter(Boolean),
      constants: constants.filter((c) => c.name || c.value),
    });
  }

  return (
    <main className="mx-auto max-w-3xl space-y-6 p-6">
      <Card>
        <CardTitle>Name</CardTitle>
        <form
          className="flex items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            rename.mutate({ projectId, name });
          }}
        >
          <div className="flex-1">
            <Field id="project-name" label="Project name" error={rename.error?.message}>
              <Input
                id="project-name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                maxLength={100}
              />
            </Field>
          </div>
          <Button type="submit" disabled={rename.isPending}>
            Rename
          </Button>
        </form>
      </Card>

      <Card>
        <CardTitle description="Plan, time zone for dates and timers, webhook and project constants (project.* variables).">
          Settings
        </CardTitle>
        <form className="space-y-4" onSubmit={onSave}>
          <Field
            id="plan"
            label="Plan"
            hint={
              <>
                {PLANS.find((p) => p.value === plan)?.effect} Nothing is billed in a self-hosted Blockbot: the
                plan only decides whether formulas may call the{' '}
                <a href="/docs/formula" target="_blank" rel="noopener" className="text-brand-600 underline">
                  in-flow functions
                </a>{' '}
                (message(), callback(), requests_*, ask_operator(), tg_* and the others), as the platform's
                interface says. New projects get the plan the instance sets in BLOCKBOT_DEFAULT_PLAN (Free
                unless set).
              </>
            }
          >
            <Select id="plan" value={plan} onChange={(e) => setPlan(e.target.value as typeof plan)}>
              {PLANS.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="time-zone" label="Time zone" hint="An IANA name such as Europe/Berlin.">
            <Input
              id="time-zone"
              value={timeZone}
              onChange={(e) => setTimeZone(e.target.value)}
              list="time-zones"
            />
          </Field>
          <datalist id="time-zones">
            {Intl.supportedValuesOf('timeZone').map((tz) => (
              <option key={tz} value={tz} />
            ))}
          </datalist>
          <Field
            id="webhook-url"
            label="Webhook URL"
            hint={
              <>
                Every received and sent message is POSTed here, signed. Leave empty for none. Each delivery,
                its answer and how to verify the signature:{' '}
                <a href={`/projects/${projectId}/settings/webhooks`} className="text-brand-600 underline">
                  Webhook log
                </a>
                .
              </>
            }
          >
            <Input
              id="webhook-url"
              value={webhookUrl}
              onChange={(e) => setWebhookUrl(e.target.value)}
              placeholder="https://example.com/blockbot"
            />
          </Field>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-1"
              checked={webhookTests}
              onChange={(e) => setWebhookTests(e.target.checked)}
            />
            <span>
              Also send test conversations
              <span className="block text-xs text-slate-500">
                The simulator’s messages, marked with the group “simulator”. Off: only real clients’ messages
                reach the webhook.
              </span>
            </span>
          </label>
          <Field
            id="pause-hours"
            label="Operator pause (hours)"
            hint="How long the bot stays paused for a client when an operator pauses it or the bot calls ask_operator(). 0: until an operator resumes it."
          >
            <Input
              id="pause-hours"
              type="number"
              min={0}
              max={720}
              step={0.25}
              value={pauseHours}
              onChange={(e) => setPauseHours(e.target.value)}
            />
          </Field>
          <Field
            id="api-allowed-origins"
            label="Web pages allowed to call the API (CORS)"
            hint={
              <>
                One origin per line, such as https://shop.example, or * for every site. Empty: browsers cannot
                read the API's answers. A key used in a web page is visible to every visitor: use a key
                without the permission to delete clients there.
              </>
            }
          >
            <Textarea
              id="api-allowed-origins"
              rows={3}
              value={allowedOrigins}
              onChange={(e) => setAllowedOrigins(e.target.value)}
              placeholder="https://shop.example"
            />
          </Field>
          {allowedOrigins.trim() === '*' ? null : (
            <Button variant="secondary" size="sm" onClick={() => setAllowedOrigins('*')}>
              Allow every site (*)
            </Button>
          )}
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-700">Project constants</legend>
            {constants.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place
              <div key={i} className="flex gap-2">
                <Input
                  aria-label="Constant name"
                  placeholder="name"
                  value={c.name}
                  onChange={(e) =>
                    setConstants(constants.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))
                  }
                />
                <Input
                  aria-label="Constant value"
                  placeholder="value"
                  value={c.value}
                  onChange={(e) =>
                    setConstants(constants.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))
                  }
                />
                <Button variant="ghost" onClick={() => setConstants(constants.filter((_, j) => j !== i))}>
                  Remove
                </Button>
              </div>
            ))}
            <Button
              variant="secondary"
              size="sm"
              onClick={() => setConstants([...constants, { name: '', value: '' }])}
            >
              Add constant
            </Button>
          </fieldset>
          {update.error ? <Alert tone="error">{update.error.message}</Alert> : null}
          {saved ? <Alert tone="success">Settings saved.</Alert> : null}
          <Button type="submit" disabled={update.isPending}>
            Save settings
          </Button>
        </form>
      </Card>

      {project.data && project.data.role !== 'operator' ? (
        <SecretsCard projectId={projectId} constants={project.data.constants.map((c) => c.name)} />
      ) : null}

      <Card>
        <CardTitle description="Receivers verify deliveries with this secret (Standard Webhooks signature headers).">
          Webhook signing secret
        </CardTitle>
        <div className="flex items-center gap-2">
          <code className="flex-1 overflow-x-auto rounded bg-slate-100 px-2 py-1 text-sm">
            {webhookSecret}
          </code>
          <CopyButton value={webhookSecret} />
          <Button
            variant="secondary"
            size="sm"
            onClick={() =>
              confirm('Replace the secret? Receivers must be updated.') && rotate.mutate({ projectId })
            }
          >
            Rotate
          </Button>
        </div>
      </Card>

      <Card className="border-red-200">
        <CardTitle description="Deletes the bot, its clients, history and keys. This cannot be undone.">
          Delete project
        </CardTitle>
        <div className="flex items-end gap-3">
          <div className="flex-1">
            <Field id="confirm-delete" label={`Type "${project.data.name}" to confirm`}>
              <Input
                id="confirm-delete"
                value={confirmName}
                onChange={(e) => setConfirmName(e.target.value)}
              />
            </Field>
          </div>
          <Button
            variant="danger"
            disabled={confirmName !== project.data.name || remove.isPending}
            onClick={() => remove.mutate({ projectId })}
          >
            Delete project
          </Button>
        </div>
      </Card>
    </main>
  );
}
