'use client';

import { Input, Select, Textarea } from '@/components/ui/input';
import {
  type ExpectedMessage,
  type StepExpectation,
  TEXT_MATCHES,
  type TextMatch,
  type VariableCheck,
} from '@/lib/conversation-tests/test-case';
import { AddButton, Labelled, RemoveButton, replaced, small, smallArea, without } from './form-parts';

/**
 * What the bot must do in a step: its messages (each one's text by a match, or ignored, and its
 * buttons, or ignored), the block the client is in after it, and variables' values. Each part
 * left unchecked is not compared (an AI's wording, a date).
 */
export function ExpectationEditor({
  step,
  expect,
  onChange,
}: {
  step: number;
  expect: StepExpectation;
  onChange(expect: StepExpectation): void;
}) {
  const messages = expect.messages;
  return (
    <div className="space-y-2">
      <div className="space-y-1.5">
        <label className="flex items-center gap-1.5 text-xs text-slate-700">
          <input
            type="checkbox"
            checked={messages !== undefined}
            onChange={(e) => onChange({ ...expect, messages: e.target.checked ? [{}] : undefined })}
          />
          Check the bot's messages
        </label>
        {messages ? (
          <ol className="space-y-1.5">
            {messages.map((message, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a message is its place in the answer.
              <li key={i} className="space-y-1 rounded bg-slate-50 p-1.5">
                <div className="flex items-center justify-between text-xs text-slate-500">
                  <span>Message {i + 1}</span>
                  <RemoveButton
                    label={`Remove step ${step} message ${i + 1}`}
                    onClick={() => onChange({ ...expect, messages: without(messages, i) })}
                  />
                </div>
                <MessageEditor
                  label={`Step ${step} message ${i + 1}`}
                  message={message}
                  onChange={(m) => onChange({ ...expect, messages: replaced(messages, i, m) })}
                />
              </li>
            ))}
            {messages.length === 0 ? (
              <li className="text-xs text-slate-500">The bot must send nothing in this step.</li>
            ) : null}
            <li>
              <AddButton
                label="Message"
                onClick={() => onChange({ ...expect, messages: [...messages, {}] })}
              />
            </li>
          </ol>
        ) : null}
      </div>
      <BlockCheck step={step} block={expect.block} onChange={(block) => onChange({ ...expect, block })} />
      <VariableChecks
        step={step}
        checks={expect.variables}
        onChange={(variables) => onChange({ ...expect, variables })}
      />
    </div>
  );
}

function MessageEditor({
  label,
  message,
  onChange,
}: {
  label: string;
  message: ExpectedMessage;
  onChange(message: ExpectedMessage): void;
}) {
  const text = message.text;
  const match: TextMatch | 'ignored' = text?.match ?? 'ignored';
  return (
    <div className="space-y-1">
      <div className="grid grid-cols-[6.5rem_1fr] gap-1">
        <Select
          className={small}
          aria-label={`${label}: text match`}
          value={match}
          onChange={(e) => {
            const next = e.target.value as TextMatch | 'ignored';
            onChange({
              ...message,
              text: next === 'ignored' ? undefined : { match: next, value: text?.value ?? '' },
            });
          }}
        >
          <option value="ignored">Text ignored</option>
          {TEXT_MATCHES.map((m) => (
            <option key={m} value={m}>
              {m === 'exact' ? 'Text is' : m === 'contains' ? 'Text contains' : 'Text matches'}
            </option>
          ))}
        </Select>
        {text ? (
          <Input
            className={small}
            aria-label={`${label}: text`}
            placeholder={text.match === 'pattern' ? 'Hello, \\w+' : ''}
            value={text.value}
            onChange={(e) => onChange({ ...message, text: { ...text, value: e.target.value } })}
          />
        ) : (
          <span />
        )}
      </div>
      <label className="flex items-center gap-1.5 text-xs text-slate-700">
        <input
          type="checkbox"
          checked={message.buttons !== undefined}
          onChange={(e) => onChange({ ...message, buttons: e.target.checked ? [] : undefined })}
        />
        Check its buttons
      </label>
      {message.buttons ? (
        <Textarea
          className={`${smallArea} min-h-12`}
          aria-label={`${label}: buttons`}
          placeholder="One button a line; empty: no buttons"
          value={message.buttons.join('\n')}
          onChange={(e) =>
            onChange({ ...message, buttons: e.target.value ? e.target.value.split('\n') : [] })
          }
        />
      ) : null}
    </div>
  );
}

/** Absent: not checked; null: the client is in no block; a number: that block. */
function BlockCheck({
  step,
  block,
  onChange,
}: {
  step: number;
  block: number | null | undefined;
  onChange(block: number | null | undefined): void;
}) {
  const mode = block === undefined ? 'unchecked' : block === null ? 'none' : 'block';
  return (
    <div className="grid grid-cols-[1fr_5rem] items-end gap-1">
      <Labelled label="Block reached">
        <Select
          className={small}
          aria-label={`Step ${step}: block reached`}
          value={mode}
          onChange={(e) =>
            onChange(
              e.target.value === 'unchecked' ? undefined : e.target.value === 'none' ? null : (block ?? 1),
            )
          }
        >
          <option value="unchecked">Not checked</option>
          <option value="block">The client is in block</option>
          <option value="none">The client is in no block</option>
        </Select>
      </Labelled>
      {typeof block === 'number' ? (
        <Input
          className={small}
          type="number"
          min={1}
          aria-label={`Step ${step}: block id`}
          value={block}
          onChange={(e) => onChange(Number(e.target.value))}
        />
      ) : null}
    </div>
  );
}

function VariableChecks({
  step,
  checks,
  onChange,
}: {
  step: number;
  checks: VariableCheck[];
  onChange(checks: VariableCheck[]): void;
}) {
  return (
    <div className="space-y-1">
      {checks.length ? <p className="text-xs text-slate-600">Variables after the step</p> : null}
      {checks.map((check, i) => {
        const formula = 'formula' in check;
        const label = `Step ${step} variable ${i + 1}`;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a check is its row while its name is typed.
          <div key={i} className="grid grid-cols-[1fr_5.5rem_1fr_auto] items-center gap-1">
            <Input
              className={`${small} font-mono`}
              aria-label={`${label}: name`}
              placeholder="client.email"
              value={check.name}
              onChange={(e) => onChange(replaced(checks, i, { ...check, name: e.target.value }))}
            />
            <Select
              className={small}
              aria-label={`${label}: check`}
              value={formula ? 'formula' : 'equals'}
              onChange={(e) =>
                onChange(
                  replaced(
                    checks,
                    i,
                    e.target.value === 'formula'
                      ? { name: check.name, formula: '' }
                      : { name: check.name, equals: '' },
                  ),
                )
              }
            >
              <option value="equals">equals</option>
              <option value="formula">satisfies</option>
            </Select>
            <Input
              className={`${small} ${formula ? 'font-mono' : ''}`}
              aria-label={`${label}: ${formula ? 'formula' : 'value'}`}
              placeholder={formula ? "contains(value, '@')" : ''}
              value={formula ? check.formula : check.equals}
              onChange={(e) =>
                onChange(
                  replaced(
                    checks,
                    i,
                    formula
                      ? { name: check.name, formula: e.target.value }
                      : { name: check.name, equals: e.target.value },
                  ),
                )
              }
            />
            <RemoveButton
              label={`Remove ${label.toLowerCase()}`}
              onClick={() => onChange(without(checks, i))}
            />
          </div>
        );
      })}
      <AddButton label="Variable check" onClick={() => onChange([...checks, { name: '', equals: '' }])} />
    </div>
  );
}
