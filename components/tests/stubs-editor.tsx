'use client';

import type { ReactNode } from 'react';

import { Input, Select, Textarea } from '@/components/ui/input';
import type { AiStub, MessengerStub, RequestStub, TestStubs } from '@/lib/conversation-tests/test-case';
import {
  AddButton,
  Labelled,
  RemoveButton,
  replaced,
  Section,
  small,
  smallArea,
  without,
} from './form-parts';

/**
 * What the outside world answers during the test instead of the network: requests (by address),
 * AI calls (by block) and messenger functions. A recorded test has them filled in from the
 * simulator's conversation.
 */
export function StubsEditor({ stubs, onChange }: { stubs: TestStubs; onChange(stubs: TestStubs): void }) {
  const { requests, ai, messenger } = stubs;
  return (
    <>
      <Section
        title="Request answers"
        action={
          <AddButton
            label="Request"
            onClick={() =>
              onChange({
                ...stubs,
                requests: [
                  ...requests,
                  { url: '', match: 'prefix', status: 200, headers: {}, body: '', delayMs: 0 },
                ],
              })
            }
          />
        }
      >
        {requests.length === 0 ? (
          <Empty>A request no stub answers fails its step, unless the step is live.</Empty>
        ) : null}
        {requests.map((stub, i) => (
          <RequestStubRow
            // biome-ignore lint/suspicious/noArrayIndexKey: stubs are ordered rows (a recorded sequence).
            key={i}
            n={i + 1}
            stub={stub}
            onChange={(s) => onChange({ ...stubs, requests: replaced(requests, i, s) })}
            onRemove={() => onChange({ ...stubs, requests: without(requests, i) })}
          />
        ))}
      </Section>
      <Section
        title="AI answers"
        action={
          <AddButton label="AI answer" onClick={() => onChange({ ...stubs, ai: [...ai, { text: '' }] })} />
        }
      >
        {ai.map((stub, i) => (
          <AiStubRow
            // biome-ignore lint/suspicious/noArrayIndexKey: stubs are ordered rows.
            key={i}
            n={i + 1}
            stub={stub}
            onChange={(s) => onChange({ ...stubs, ai: replaced(ai, i, s) })}
            onRemove={() => onChange({ ...stubs, ai: without(ai, i) })}
          />
        ))}
      </Section>
      <Section
        title="Messenger function results"
        action={
          <AddButton
            label="Function"
            onClick={() =>
              onChange({ ...stubs, messenger: [...messenger, { function: '', result: 'null' }] })
            }
          />
        }
      >
        {messenger.map((stub, i) => (
          <MessengerStubRow
            // biome-ignore lint/suspicious/noArrayIndexKey: stubs are ordered rows.
            key={i}
            n={i + 1}
            stub={stub}
            onChange={(s) => onChange({ ...stubs, messenger: replaced(messenger, i, s) })}
            onRemove={() => onChange({ ...stubs, messenger: without(messenger, i) })}
          />
        ))}
      </Section>
    </>
  );
}

const Empty = ({ children }: { children: ReactNode }) => <p className="text-xs text-slate-500">{children}</p>;

interface RowProps<T> {
  n: number;
  stub: T;
  onChange(stub: T): void;
  onRemove(): void;
}

function RowHeader({ title, onRemove }: { title: string; onRemove(): void }) {
  return (
    <div className="flex items-center justify-between text-xs text-slate-500">
      <span>{title}</span>
      <RemoveButton label={`Remove ${title.toLowerCase()}`} onClick={onRemove} />
    </div>
  );
}

function Once({ checked, onChange }: { checked: boolean; onChange(once: boolean | undefined): void }) {
  return (
    <label
      className="flex items-center gap-1.5 text-xs text-slate-700"
      title="Answers one call only, in order with the others"
    >
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked || undefined)} />
      Once
    </label>
  );
}

function RequestStubRow({ n, stub, onChange, onRemove }: RowProps<RequestStub>) {
  return (
    <div className="space-y-1 rounded bg-slate-50 p-1.5">
      <RowHeader title={`Request ${n}`} onRemove={onRemove} />
      <div className="grid grid-cols-[4.5rem_1fr_5rem] gap-1">
        <Select
          className={small}
          aria-label={`Request ${n}: method`}
          value={stub.method ?? ''}
          onChange={(e) =>
            onChange({ ...stub, method: (e.target.value || undefined) as RequestStub['method'] })
          }
        >
          <option value="">Any</option>
          <option>GET</option>
          <option>POST</option>
        </Select>
        <Input
          className={small}
          aria-label={`Request ${n}: address`}
          placeholder="https://api.example.com/orders"
          value={stub.url}
          onChange={(e) => onChange({ ...stub, url: e.target.value })}
        />
        <Select
          className={small}
          aria-label={`Request ${n}: address match`}
          value={stub.match}
          onChange={(e) => onChange({ ...stub, match: e.target.value as RequestStub['match'] })}
        >
          <option value="prefix">starts</option>
          <option value="exact">exact</option>
          <option value="pattern">pattern</option>
        </Select>
      </div>
      <div className="grid grid-cols-3 items-end gap-1">
        <Labelled label="Status">
          <Input
            className={small}
            type="number"
            value={stub.status}
            onChange={(e) => onChange({ ...stub, status: Number(e.target.value) })}
          />
        </Labelled>
        <Labelled label="Delay, ms">
          <Input
            className={small}
            type="number"
            min={0}
            value={stub.delayMs}
            onChange={(e) => onChange({ ...stub, delayMs: Number(e.target.value) })}
          />
        </Labelled>
        <Once checked={!!stub.once} onChange={(once) => onChange({ ...stub, once })} />
      </div>
      <Textarea
        className={`${smallArea} min-h-12 font-mono`}
        aria-label={`Request ${n}: answer body`}
        placeholder='{"status": "paid"}'
        value={stub.body}
        onChange={(e) => onChange({ ...stub, body: e.target.value })}
      />
    </div>
  );
}

function AiStubRow({ n, stub, onChange, onRemove }: RowProps<AiStub>) {
  return (
    <div className="space-y-1 rounded bg-slate-50 p-1.5">
      <RowHeader title={`AI answer ${n}`} onRemove={onRemove} />
      <div className="grid grid-cols-[1fr_auto] items-end gap-1">
        <Labelled label="Block id (empty: any)">
          <Input
            className={small}
            type="number"
            min={1}
            value={stub.blockId ?? ''}
            onChange={(e) =>
              onChange({ ...stub, blockId: e.target.value ? Number(e.target.value) : undefined })
            }
          />
        </Labelled>
        <Once checked={!!stub.once} onChange={(once) => onChange({ ...stub, once })} />
      </div>
      <Textarea
        className={`${smallArea} min-h-12`}
        aria-label={`AI answer ${n}: text`}
        value={stub.text}
        onChange={(e) => onChange({ ...stub, text: e.target.value })}
      />
      {stub.toolCall ? (
        <p className="text-xs text-slate-500">
          Calls <span className="font-mono">{stub.toolCall.name}</span> (kept as recorded)
        </p>
      ) : null}
    </div>
  );
}

function MessengerStubRow({ n, stub, onChange, onRemove }: RowProps<MessengerStub>) {
  const invalid = !isJson(stub.result);
  return (
    <div className="space-y-1 rounded bg-slate-50 p-1.5">
      <RowHeader title={`Function ${n}`} onRemove={onRemove} />
      <div className="grid grid-cols-[1fr_auto] items-center gap-1">
        <Input
          className={`${small} font-mono`}
          aria-label={`Function ${n}: name`}
          placeholder="tg_get_chat_member"
          value={stub.function}
          onChange={(e) => onChange({ ...stub, function: e.target.value })}
        />
        <Once checked={!!stub.once} onChange={(once) => onChange({ ...stub, once })} />
      </div>
      <Textarea
        className={`${smallArea} min-h-12 font-mono`}
        aria-label={`Function ${n}: result (JSON)`}
        aria-invalid={invalid}
        value={stub.result}
        onChange={(e) => onChange({ ...stub, result: e.target.value })}
      />
      {invalid ? <p className="text-xs text-red-600">The result is not JSON.</p> : null}
    </div>
  );
}

/** Whether a messenger stub's result reads as JSON (the form refuses to save it otherwise). */
export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
