'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { PreviewContent } from '@/components/channels/channel-preview';
import { CHANNEL_PREVIEWS, type PreviewKind } from '@/components/channels/previews';
import { SaveAsTest } from '@/components/tests/save-as-test';
import { useTRPC } from '@/components/trpc/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Input } from '@/components/ui/input';
import { useScrollToNewest } from '@/components/ui/use-scroll-to-newest';
import type { ConversationTest } from '@/lib/conversation-tests/test-case';
import { messageWithCurrentButtons } from '@/lib/current-buttons';
import type { Attachment, Buttons } from '@/lib/schema';
import { SIMULATOR_EDITIONS, type SimulatorEdition } from '@/lib/simulator/editions';
import { SimulatorLogEntry } from './simulator-log-entry';
import { SimulatorTimer } from './simulator-timer';
import { SimulatorWarning } from './simulator-warning';
import { TestClientForm } from './test-client-form';

const buttonList = (buttons: unknown): { text: string }[] => {
  const b = buttons as Buttons | null;
  if (!b) return [];
  return Array.isArray(b) ? b : b.buttons;
};

/** The builder's test chat: talks to the bot through the simulator channel, the engine's one flow. */
export function SimulatorPanel({
  projectId,
  onCurrentBlock,
  onShowBlock,
  onTestRecorded,
}: {
  projectId: number;
  /** Save as test, for those who may write tests: the recorded test, to open in the Tests panel. */
  onTestRecorded?(test: ConversationTest): void;
  /** Shows a block on the canvas, selected (the keyboard's way to find the current block). */
  onShowBlock(id: number): void;
  /** The conversation's current block: once as the state loads, then whenever it changes. */
  onCurrentBlock(id: number | null): void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // The draft being edited, or the published version clients get: a conversation each.
  const [edition, setEdition] = useState<SimulatorEdition>('draft');
  const publishState = useQuery(trpc.versions.state.queryOptions({ projectId }));
  const live = publishState.data?.published?.number ?? null;
  const state = useQuery({
    ...trpc.simulator.state.queryOptions({ projectId, edition }),
    refetchInterval: 2000,
  });
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.simulator.state.queryKey({ projectId, edition }) });
  const send = useMutation(trpc.simulator.send.mutationOptions({ onSuccess: refresh }));
  const reset = useMutation(trpc.simulator.reset.mutationOptions({ onSuccess: refresh }));
  const fire = useMutation(trpc.simulator.fireNow.mutationOptions({ onSuccess: refresh }));
  const [text, setText] = useState('');
  const [tab, setTab] = useState<'variables' | 'log'>('variables');
  const [editingClient, setEditingClient] = useState(false);
  // How the bot's messages are drawn: the simulator's own way (null), or as a messenger shows them.
  const [previewAs, setPreviewAs] = useState<PreviewKind | null>(null);
  const preview = previewAs ? CHANNEL_PREVIEWS[previewAs] : null;
  const data = state.data;
  const profileVariables = (data?.variables.client ?? {}) as Record<string, string | undefined>;
  const testClient = {
    name: data?.clientName ?? '',
    phone: profileVariables.phone ?? '',
    email: profileVariables.email ?? '',
    language: profileVariables.language ?? '',
  };
  const scroller = useRef<HTMLDivElement>(null);
  const newest = data?.transcript.at(-1);
  useScrollToNewest(scroller, newest && `${newest.direction}-${newest.id}`);

  // Told once the state has loaded, then at every change: the canvas tells the two apart.
  const loaded = data !== undefined;
  const currentBlockId = data?.currentBlockId ?? null;
  useEffect(() => {
    if (loaded) onCurrentBlock(currentBlockId);
  }, [loaded, currentBlockId, onCurrentBlock]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    send.mutate({ projectId, text, edition });
    setText('');
  }

  const sent = (data?.transcript ?? []).flatMap((m) => (m.direction === 'out' ? [m] : []));
  // The state's buttons stay under a not-a-state block's answer, as a messenger's keyboard does.
  const buttonsNow = messageWithCurrentButtons(sent, currentBlockId, (m) => buttonList(m.buttons).length > 0);
  const press = (text: string) => send.mutate({ projectId, text, edition });
  /** A sent message's content, as the messengers' renderers take it. */
  const contentOf = (m: (typeof sent)[number]): PreviewContent => ({
    text: m.text,
    attachments: m.attachments as Attachment[],
    buttons: m.buttons as Buttons | null,
  });
  return (
    <aside
      className="flex h-full w-96 max-w-[calc(100vw-2.25rem)] shrink-0 flex-col border-l border-slate-200 bg-white"
      aria-label="Simulator"
    >
      <div className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
        <h2 className="text-sm font-semibold">Simulator</h2>
        <div className="flex items-center gap-2">
          <fieldset className="flex rounded-md border border-slate-200 p-0.5 text-xs" aria-label="Talk to">
            {SIMULATOR_EDITIONS.map((e) => (
              <label
                key={e}
                title={
                  e === 'draft'
                    ? 'The bot as you edit it'
                    : live
                      ? `Version ${live}, what clients on your channels get`
                      : 'Nothing is published yet'
                }
                className={cn(
                  'cursor-pointer rounded px-2 py-0.5 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500',
                  edition === e ? 'bg-slate-800 text-white' : 'text-slate-600 hover:bg-slate-100',
                  e === 'published' && !live && 'cursor-not-allowed text-slate-300 hover:bg-transparent',
                )}
              >
                <input
                  type="radio"
                  name="simulator-edition"
                  className="sr-only"
                  checked={edition === e}
                  disabled={e === 'published' && !live}
                  onChange={() => setEdition(e)}
                />
                {e === 'draft' ? 'Draft' : live ? `Published v${live}` : 'Published'}
              </label>
            ))}
          </fieldset>
          <Button variant="ghost" size="sm" onClick={() => reset.mutate({ projectId, edition })}>
            Reset
          </Button>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-x-2 border-b border-slate-100 px-3 py-1 text-xs text-slate-600">
        <span className="min-w-0 flex-1 truncate" data-testid="test-client">
          Talking as <strong>{testClient.name || 'a client with no name'}</strong>
        </span>
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={editingClient}
          onClick={() => setEditingClient((open) => !open)}
        >
          Test client
        </Button>
        {onTestRecorded ? (
          <SaveAsTest
            projectId={projectId}
            disabled={
              edition !== 'draft'
                ? "Tests are recorded from the draft's conversation"
                : !data?.transcript.length
                  ? 'Talk to the bot first: the conversation becomes the test'
                  : null
            }
            onRecorded={onTestRecorded}
          />
        ) : null}
      </div>
      {editingClient && data ? (
        <TestClientForm
          projectId={projectId}
          edition={edition}
          current={testClient}
          onSaved={refresh}
          onClose={() => setEditingClient(false)}
        />
      ) : null}
      <div className="flex items-center gap-3 border-b border-slate-100 px-3 py-1 text-xs text-slate-600">
        <span>Preview as:</span>
        {(Object.keys(CHANNEL_PREVIEWS) as PreviewKind[]).map((kind) => (
          <label key={kind} className="flex items-center gap-1.5">
            <input
              type="checkbox"
              role="switch"
              aria-label={`Preview as: ${CHANNEL_PREVIEWS[kind].label}`}
              checked={previewAs === kind}
              onChange={(e) => setPreviewAs(e.target.checked ? kind : null)}
              aria-checked={previewAs === kind}
            />
            {CHANNEL_PREVIEWS[kind].label}
          </label>
        ))}
      </div>
      {currentBlockId !== null ? (
        <p className="flex items-center gap-1 border-b border-slate-100 px-3 py-1 text-xs text-slate-600">
          The conversation is in
          <button
            type="button"
            className="font-mono text-brand-700 hover:underline"
            onClick={() => onShowBlock(currentBlockId)}
            title="Show this block on the canvas"
          >
            block #{currentBlockId}
          </button>
        </p>
      ) : null}
      <div
        ref={scroller}
        className={cn('min-h-0 flex-1 overflow-y-auto p-3', preview?.background)}
        data-testid="simulator-scroller"
      >
        {data && !data.transcript.length ? (
          // A newcomer's first look: nothing says the bot waits for the client to write first.
          <div className="mt-6 space-y-2 px-3 text-center text-sm text-slate-500" role="note">
            <p className="font-medium text-slate-700">Write to the bot as a client would</p>
            <p>
              A new client's first message goes to the start block whose trigger it matches, or else to the
              start block with an empty trigger. Reset starts again as a new client.
            </p>
          </div>
        ) : null}
        <ol className="space-y-2" data-testid="transcript">
          {data?.transcript.map((m) => (
            <li
              key={`${m.direction}-${m.id}`}
              className={cn('flex', m.direction === 'in' ? 'justify-end' : 'justify-start')}
            >
              {m.direction === 'warning' ? (
                <SimulatorWarning text={m.text} fix={m.fix} />
              ) : preview && m.direction === 'out' ? (
                preview.message(contentOf(m), press)
              ) : (
                <div
                  data-testid={m.direction === 'in' ? 'sim-in' : 'sim-out'}
                  className={cn(
                    'max-w-[85%] rounded-lg px-3 py-1.5 text-sm whitespace-pre-line',
                    m.direction === 'in' ? 'bg-brand-600 text-white' : 'bg-slate-100 text-slate-900',
                    m.messageFromOutside ? 'italic opacity-80' : '',
                  )}
                >
                  {m.text}
                  {(m.attachments as { type: string; url: string }[]).map((a) => (
                    <a
                      key={a.url}
                      href={a.url}
                      target="_blank"
                      rel="noreferrer"
                      className="block text-xs underline"
                    >
                      {a.type}: {a.url}
                    </a>
                  ))}
                </div>
              )}
            </li>
          ))}
        </ol>
      </div>
      {!preview && buttonsNow ? (
        <div className="flex flex-wrap gap-1 border-t border-slate-100 px-3 py-2" data-testid="sim-buttons">
          {buttonList(buttonsNow.buttons).map((b) => (
            <Button key={b.text} variant="secondary" size="sm" onClick={() => press(b.text)}>
              {b.text}
            </Button>
          ))}
        </div>
      ) : null}
      <form onSubmit={submit} className="flex gap-2 border-t border-slate-200 p-3">
        <Input
          aria-label="Message to the bot"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Say something…"
        />
        <Button type="submit" disabled={send.isPending}>
          Send
        </Button>
      </form>
      {preview?.footer?.(sent.map(contentOf), press)}
      {send.error ? <Alert tone="error">{send.error.message}</Alert> : null}
      <div className="h-64 shrink-0 overflow-y-auto border-t border-slate-200 text-xs">
        <div className="flex gap-1 border-b border-slate-100 px-2 py-1" role="tablist">
          {(['variables', 'log'] as const).map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              aria-selected={tab === t}
              onClick={() => setTab(t)}
              className={cn('rounded px-2 py-0.5', tab === t && 'bg-slate-100 font-medium')}
            >
              {t === 'variables' ? 'Variables' : 'Log'}
            </button>
          ))}
        </div>
        {tab === 'variables' ? (
          <div className="space-y-2 p-2" data-testid="variables">
            {(['deal', 'client', 'project'] as const).map((scope) => (
              <div key={scope}>
                <p className="font-semibold text-slate-500">{scope}</p>
                {Object.entries(data?.variables[scope] ?? {}).map(([k, v]) => (
                  <p key={k} className="font-mono">
                    {scope === 'deal' ? '' : `${scope}.`}
                    {k} = {String(v)}
                  </p>
                ))}
              </div>
            ))}
            {data?.timers.map((t) => (
              <SimulatorTimer
                key={t.id}
                timer={t}
                onFireNow={() => fire.mutate({ projectId, scheduledSendId: t.id, edition })}
              />
            ))}
          </div>
        ) : (
          <ol className="space-y-1 p-2" data-testid="log">
            {data?.log.map((entry) => (
              <SimulatorLogEntry key={entry.id} kind={entry.kind} data={entry.data} />
            ))}
          </ol>
        )}
      </div>
    </aside>
  );
}
