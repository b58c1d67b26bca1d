'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useState } from 'react';
import { MessageTextField } from '@/components/block-editor/message-text-field';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input, Select, Textarea } from '@/components/ui/input';
import { ATTACHMENT_TYPES } from '@/lib/schema';
import type { BroadcastDraft } from '@/server/broadcasts/broadcast-views';

type Op = 'equals' | 'not_equals' | 'contains' | 'is_set' | 'is_not_set';
const OPS: Record<Op, string> = {
  equals: 'equals',
  not_equals: 'does not equal',
  contains: 'contains',
  is_set: 'is set',
  is_not_set: 'is not set',
};

/** The field a server error names (`text: …`, `recipients.lists`, `scheduledAt: …`). */
function fieldOf(message: string) {
  const m = /^([a-zA-Z.]+):/.exec(message);
  return m?.[1]?.split('.')[0] ?? null;
}

function useDebounced<T>(value: T, ms: number) {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

function MultiSelect({
  id,
  label,
  options,
  value,
  onChange,
  empty,
  showIds = true,
}: {
  id: string;
  label: string;
  options: { id: number; name: string }[];
  value: number[];
  onChange(v: number[]): void;
  empty: string;
  /** Show each option's id (lists and stages: integrators need it); not for messengers. */
  showIds?: boolean;
}) {
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium text-slate-700">{label}</legend>
      {options.length ? (
        <div className="flex max-h-40 flex-wrap gap-1.5 overflow-y-auto">
          {options.map((o) => {
            const on = value.includes(o.id);
            return (
              <label
                key={o.id}
                className={`inline-flex cursor-pointer items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs ${on ? 'border-brand-500 bg-brand-50 text-brand-700' : 'border-slate-300 text-slate-700'}`}
              >
                <input
                  id={`${id}-${o.id}`}
                  type="checkbox"
                  className="size-3.5"
                  checked={on}
                  onChange={() => onChange(on ? value.filter((x) => x !== o.id) : [...value, o.id])}
                />
                {o.name} {showIds ? <span className="text-slate-400">#{o.id}</span> : null}
              </label>
            );
          })}
        </div>
      ) : (
        <p className="text-xs text-slate-500">{empty}</p>
      )}
    </fieldset>
  );
}

/**
 * The compose form of the Broadcasts tab (docs/broadcasts.md). Given a draft, it edits that draft:
 * prefilled with everything it holds, saved into the same broadcast (kept a draft, scheduled, or
 * sent now).
 */
export function BroadcastCompose({ projectId, draft }: { projectId: number; draft?: BroadcastDraft }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const options = useQuery(trpc.broadcasts.recipientOptions.queryOptions({ projectId }));
  const f = draft?.filter;
  const [name, setName] = useState(draft?.name ?? '');
  const [kind, setKind] = useState<'message' | 'block'>(draft?.blockId && !draft.text ? 'block' : 'message');
  const [text, setText] = useState(draft?.text ?? '');
  const [attachmentType, setAttachmentType] = useState<(typeof ATTACHMENT_TYPES)[number]>(
    draft?.attachment?.type ?? 'image',
  );
  const [attachmentUrl, setAttachmentUrl] = useState(draft?.attachment?.url ?? '');
  const [buttonLines, setButtonLines] = useState(draft?.buttons.join('\n') ?? '');
  const [inlineButtons, setInlineButtons] = useState(draft?.inlineButtons ?? false);
  const [blockId, setBlockId] = useState(draft?.blockId ? String(draft.blockId) : '');
  const [listIds, setListIds] = useState<number[]>(f?.listIds ?? []);
  const [excludeListIds, setExcludeListIds] = useState<number[]>(f?.excludeListIds ?? []);
  const [clientTypes, setClientTypes] = useState<number[]>(f?.clientTypes ?? []);
  const [crmStateId, setCrmStateId] = useState(f?.crmStateId ? String(f.crmStateId) : '');
  const [currentBlockId, setCurrentBlockId] = useState(f?.blockId ? String(f.blockId) : '');
  const [variableName, setVariableName] = useState(f?.variable?.name ?? '');
  const [variableOp, setVariableOp] = useState<Op>(f?.variable?.op ?? 'equals');
  const [variableValue, setVariableValue] = useState(f?.variable?.value ?? '');
  const [after, setAfter] = useState(f?.firstContactAfter ?? '');
  const [before, setBefore] = useState(f?.firstContactBefore ?? '');
  const [shift, setShift] = useState(draft ? String(draft.shiftSeconds) : '0.2');
  const [when, setWhen] = useState<'now' | 'schedule' | 'draft'>(draft ? 'draft' : 'now');
  const [scheduledAt, setScheduledAt] = useState('');
  const [error, setError] = useState<string | null>(null);

  const filter = {
    listIds,
    excludeListIds,
    clientTypes,
    crmStateId: crmStateId ? Number(crmStateId) : undefined,
    blockId: currentBlockId ? Number(currentBlockId) : undefined,
    variable: variableName.trim()
      ? { name: variableName.trim(), op: variableOp, value: variableValue }
      : undefined,
    firstContactAfter: after || undefined,
    firstContactBefore: before || undefined,
  };
  const debounced = useDebounced(filter, 300);
  const count = useQuery(trpc.broadcasts.count.queryOptions({ projectId, filter: debounced }));
  const mutationHandlers = {
    onSuccess: async (b: { id: number }) => {
      await queryClient.invalidateQueries({ queryKey: trpc.broadcasts.pathKey() });
      router.push(`/projects/${projectId}/broadcasts/${b.id}`);
    },
    onError: (e: { message: string }) => setError(e.message),
  };
  const create = useMutation(trpc.broadcasts.create.mutationOptions(mutationHandlers));
  const update = useMutation(trpc.broadcasts.updateDraft.mutationOptions(mutationHandlers));
  const pending = create.isPending || update.isPending;
  const opts = options.data;
  const errorField = error ? fieldOf(error) : null;
  const fieldError = (f: string) => (errorField === f ? error : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const shiftSeconds = Number(shift);
    if (shift.trim() === '' || Number.isNaN(shiftSeconds))
      return setError('shift: must be a number of seconds.');
    const texts = buttonLines
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const input = {
      projectId,
      name,
      mode: when,
      scheduledAt: when === 'schedule' ? scheduledAt || undefined : undefined,
      shiftSeconds,
      filter,
      ...(kind === 'block'
        ? { text: '', blockId: blockId ? Number(blockId) : undefined }
        : {
            text,
            attachment: attachmentUrl.trim()
              ? { type: attachmentType, url: attachmentUrl.trim() }
              : undefined,
            buttons: texts.length
              ? texts.map((t) => ({
                  type: inlineButtons ? ('inline' as const) : ('reply' as const),
                  text: t,
                }))
              : undefined,
          }),
    };
    if (draft) update.mutate({ ...input, broadcastId: draft.id });
    else create.mutate(input);
  };
  const recipients = count.data;
  return (
    <main className="mx-auto max-w-3xl space-y-4 p-4 sm:p-6">
      {draft ? (
        <nav className="text-sm">
          <Link
            href={`/projects/${projectId}/broadcasts/${draft.id}`}
            className="text-slate-500 hover:underline"
          >
            ← Back to the draft
          </Link>
        </nav>
      ) : null}
      <h1 className="text-lg font-semibold text-slate-900">{draft ? 'Edit draft' : 'New broadcast'}</h1>
      {opts && !opts.canSend ? (
        <Alert tone="error">Operators may not send broadcasts in this project; ask an owner or admin.</Alert>
      ) : null}
      <form
        className="space-y-4"
        onSubmit={submit}
        aria-label={draft ? 'Edit the draft' : 'Compose a broadcast'}
      >
        <Card className="space-y-3 p-4">
          <Field id="bc-name" label="Name (for the list of broadcasts)">
            <Input id="bc-name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
          </Field>
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="mb-1 text-sm font-medium text-slate-700">Send</legend>
            <label className="inline-flex items-center gap-1.5">
              <input
                type="radio"
                name="kind"
                checked={kind === 'message'}
                onChange={() => setKind('message')}
              />
              A message
            </label>
            <label className="inline-flex items-center gap-1.5">
              <input type="radio" name="kind" checked={kind === 'block'} onChange={() => setKind('block')} />A
              block (each recipient moves into it)
            </label>
          </fieldset>
          {kind === 'message' ? (
            <>
              <MessageTextField
                id="bc-text"
                label="Message"
                value={text}
                onChange={setText}
                error={fieldError('text')}
              />
              <div className="grid grid-cols-[7rem_1fr] gap-2">
                <Field id="bc-attachment-type" label="Attachment">
                  <Select
                    id="bc-attachment-type"
                    value={attachmentType}
                    onChange={(e) => setAttachmentType(e.target.value as typeof attachmentType)}
                  >
                    {ATTACHMENT_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {t}
                      </option>
                    ))}
                  </Select>
                </Field>
                <Field
                  id="bc-attachment-url"
                  label="Attachment URL (optional)"
                  error={fieldError('attachment')}
                >
                  <Input
                    id="bc-attachment-url"
                    type="url"
                    placeholder="https://…"
                    value={attachmentUrl}
                    onChange={(e) => setAttachmentUrl(e.target.value)}
                  />
                </Field>
              </div>
              <Field id="bc-buttons" label="Buttons, one per line (optional)" error={fieldError('buttons')}>
                <Textarea
                  id="bc-buttons"
                  rows={2}
                  value={buttonLines}
                  onChange={(e) => setButtonLines(e.target.value)}
                />
              </Field>
              <label className="inline-flex items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  checked={inlineButtons}
                  onChange={(e) => setInlineButtons(e.target.checked)}
                />
                Inline buttons (under the message)
              </label>
            </>
          ) : (
            <Field id="bc-block" label="Block" error={fieldError('text') ?? fieldError('blockId')}>
              <Select id="bc-block" value={blockId} onChange={(e) => setBlockId(e.target.value)}>
                <option value="">Pick a block…</option>
                {opts?.blocks.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name} (#{b.id})
                  </option>
                ))}
              </Select>
            </Field>
          )}
        </Card>

        <Card className="space-y-3 p-4">
          <h2 className="text-sm font-semibold text-slate-900">Recipients</h2>
          <p className="text-xs text-slate-500">
            Every subscribed client, narrowed by each condition you set.
          </p>
          <MultiSelect
            id="bc-lists"
            label="In any of these lists"
            options={opts?.lists ?? []}
            value={listIds}
            onChange={setListIds}
            empty="This project has no lists yet."
          />
          <MultiSelect
            id="bc-exclude"
            label="Not in these lists"
            options={opts?.lists ?? []}
            value={excludeListIds}
            onChange={setExcludeListIds}
            empty="—"
          />
          <MultiSelect
            id="bc-messengers"
            label="Messengers"
            options={(opts?.messengers ?? []).map((m) => ({ id: m.clientType, name: m.label }))}
            value={clientTypes}
            onChange={setClientTypes}
            empty="No clients yet."
            showIds={false}
          />
          <div className="grid gap-3 sm:grid-cols-2">
            <Field id="bc-stage" label="CRM stage (open deal)">
              <Select id="bc-stage" value={crmStateId} onChange={(e) => setCrmStateId(e.target.value)}>
                <option value="">Any</option>
                {opts?.crmStates.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name} (#{s.id})
                  </option>
                ))}
              </Select>
            </Field>
            <Field id="bc-current" label="Current block">
              <Select
                id="bc-current"
                value={currentBlockId}
                onChange={(e) => setCurrentBlockId(e.target.value)}
              >
                <option value="">Any</option>
                {opts?.blocks.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name} (#{b.id})
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-[1fr_10rem_1fr]">
            <Field id="bc-var-name" label="Variable">
              <Input
                id="bc-var-name"
                placeholder="e.g. city"
                value={variableName}
                onChange={(e) => setVariableName(e.target.value)}
              />
            </Field>
            <Field id="bc-var-op" label="Condition">
              <Select id="bc-var-op" value={variableOp} onChange={(e) => setVariableOp(e.target.value as Op)}>
                {Object.entries(OPS).map(([v, l]) => (
                  <option key={v} value={v}>
                    {l}
                  </option>
                ))}
              </Select>
            </Field>
            <div className="col-span-2 sm:col-span-1">
              <Field id="bc-var-value" label="Value">
                <Input
                  id="bc-var-value"
                  value={variableValue}
                  disabled={variableOp === 'is_set' || variableOp === 'is_not_set'}
                  onChange={(e) => setVariableValue(e.target.value)}
                />
              </Field>
            </div>
          </div>
          <div className="grid grid-cols-2 gap-2">
            <Field id="bc-after" label="First contact on or after">
              <Input id="bc-after" type="date" value={after} onChange={(e) => setAfter(e.target.value)} />
            </Field>
            <Field id="bc-before" label="First contact before" error={fieldError('recipients')}>
              <Input id="bc-before" type="date" value={before} onChange={(e) => setBefore(e.target.value)} />
            </Field>
          </div>
          <p className="text-sm" aria-live="polite" data-testid="recipient-count">
            {count.error ? (
              <span className="text-red-600">{count.error.message}</span>
            ) : recipients === undefined ? (
              'Counting recipients…'
            ) : (
              <>
                <strong className="text-slate-900">{recipients.toLocaleString()}</strong>{' '}
                {recipients === 1 ? 'recipient' : 'recipients'} match now
              </>
            )}
          </p>
          {fieldError('recipients') ? <Alert tone="error">{error}</Alert> : null}
        </Card>

        <Card className="space-y-3 p-4">
          <h2 className="text-sm font-semibold text-slate-900">When</h2>
          <Field
            id="bc-shift"
            label="Seconds between messages"
            hint="0.2 by default; each messenger's own limit also holds (tg: 30 a second per bot)"
            error={fieldError('shift')}
          >
            <Input
              id="bc-shift"
              className="max-w-32"
              inputMode="decimal"
              value={shift}
              onChange={(e) => setShift(e.target.value)}
            />
          </Field>
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="sr-only">When to send</legend>
            {(
              [
                ['now', 'Send now'],
                ['schedule', 'At a time'],
                ['draft', 'Keep as a draft'],
              ] as const
            ).map(([v, l]) => (
              <label key={v} className="inline-flex items-center gap-1.5">
                <input type="radio" name="when" checked={when === v} onChange={() => setWhen(v)} />
                {l}
              </label>
            ))}
          </fieldset>
          {when === 'schedule' ? (
            <Field
              id="bc-at"
              label={`Send at (${opts?.timeZone ?? 'project time zone'})`}
              error={fieldError('scheduledAt')}
            >
              <Input
                id="bc-at"
                type="datetime-local"
                className="max-w-64"
                value={scheduledAt}
                onChange={(e) => setScheduledAt(e.target.value)}
              />
            </Field>
          ) : null}
        </Card>
        {error && !['text', 'recipients', 'scheduledAt', 'shift', 'blockId'].includes(errorField ?? '') ? (
          <Alert tone="error">{error}</Alert>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button type="submit" disabled={pending || (opts ? !opts.canSend : true)}>
            {when === 'now' ? 'Send broadcast' : when === 'schedule' ? 'Schedule broadcast' : 'Save draft'}
          </Button>
        </div>
      </form>
    </main>
  );
}
