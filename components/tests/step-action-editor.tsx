'use client';

import { useState } from 'react';
import { Input, Select } from '@/components/ui/input';
import type { StepAction } from '@/lib/conversation-tests/test-case';
import { ATTACHMENT_TYPES } from '@/lib/schema/attachment-types';
import { Labelled, small, VariableRows } from './form-parts';
import { secondsOf, WAIT_UNITS, type WaitUnit, waitParts } from './wait-units';

const ACTIONS: { type: StepAction['type']; label: string }[] = [
  { type: 'text', label: 'The client writes' },
  { type: 'button', label: 'The client presses a button' },
  { type: 'attachment', label: 'The client sends a file' },
  { type: 'callback', label: 'A callback from your system' },
  { type: 'enter', label: 'The client is sent into a block' },
  { type: 'wait', label: 'Time passes' },
];

/** A new action of a type, empty but for what every action of it needs. */
function emptyAction(type: StepAction['type']): StepAction {
  switch (type) {
    case 'text':
    case 'button':
      return { type, text: '' };
    case 'attachment':
      return { type, kind: 'image', url: '', text: '' };
    case 'callback':
      return { type, text: '', variables: {} };
    case 'enter':
      return { type, blockId: 1 };
    case 'wait':
      return { type, seconds: 3_600 };
  }
}

/** What the client (or the world) does in a step: its type, then that type's fields. */
export function StepActionEditor({
  step,
  action,
  onChange,
}: {
  /** The step's number from 1, for the labels. */
  step: number;
  action: StepAction;
  onChange(action: StepAction): void;
}) {
  return (
    <div className="space-y-1.5">
      <Labelled label="What happens">
        <Select
          className={small}
          value={action.type}
          onChange={(e) => onChange(emptyAction(e.target.value as StepAction['type']))}
          aria-label={`Step ${step}: what happens`}
        >
          {ACTIONS.map((a) => (
            <option key={a.type} value={a.type}>
              {a.label}
            </option>
          ))}
        </Select>
      </Labelled>
      <ActionFields step={step} action={action} onChange={onChange} />
    </div>
  );
}

function ActionFields({
  step,
  action,
  onChange,
}: {
  step: number;
  action: StepAction;
  onChange(a: StepAction): void;
}) {
  switch (action.type) {
    case 'text':
    case 'button':
      return (
        <Labelled label={action.type === 'text' ? 'Message' : "The button's text"}>
          <Input
            className={small}
            aria-label={`Step ${step}: ${action.type === 'text' ? 'message' : 'button'}`}
            value={action.text}
            onChange={(e) => onChange({ ...action, text: e.target.value })}
          />
        </Labelled>
      );
    case 'attachment':
      return (
        <div className="grid grid-cols-[6rem_1fr] gap-1.5">
          <Labelled label="Kind">
            <Select
              className={small}
              value={action.kind}
              onChange={(e) => onChange({ ...action, kind: e.target.value as typeof action.kind })}
            >
              {ATTACHMENT_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </Select>
          </Labelled>
          <Labelled label="Address">
            <Input
              className={small}
              placeholder="https://example.com/photo.jpg"
              value={action.url}
              onChange={(e) => onChange({ ...action, url: e.target.value })}
            />
          </Labelled>
          <Labelled label="Caption" className="col-span-2">
            <Input
              className={small}
              value={action.text}
              onChange={(e) => onChange({ ...action, text: e.target.value })}
            />
          </Labelled>
        </div>
      );
    case 'callback':
      return (
        <div className="space-y-1.5">
          <Labelled label="Text">
            <Input
              className={small}
              value={action.text}
              onChange={(e) => onChange({ ...action, text: e.target.value })}
            />
          </Labelled>
          <p className="text-xs text-slate-600">Variables it sets</p>
          <VariableRows
            label={`Step ${step} callback variable`}
            value={action.variables}
            onChange={(variables) => onChange({ ...action, variables })}
          />
        </div>
      );
    case 'enter':
      return (
        <Labelled label="Block id">
          <Input
            className={small}
            type="number"
            min={1}
            value={action.blockId}
            onChange={(e) => onChange({ ...action, blockId: Number(e.target.value) })}
          />
        </Labelled>
      );
    case 'wait':
      return <WaitFields step={step} action={action} onChange={onChange} />;
  }
}

/** The wait in a unit the designer picks (kept while they type: 60 minutes stay minutes). */
function WaitFields({
  step,
  action,
  onChange,
}: {
  step: number;
  action: Extract<StepAction, { type: 'wait' }>;
  onChange(a: StepAction): void;
}) {
  const [unit, setUnit] = useState<WaitUnit>(() => waitParts(action.seconds).unit);
  const amount = action.seconds / secondsOf(unit);
  return (
    <div className="grid grid-cols-2 gap-1.5">
      <Labelled label="Wait">
        <Input
          className={small}
          type="number"
          min={1}
          aria-label={`Step ${step}: wait`}
          value={Number.isFinite(amount) ? amount : ''}
          onChange={(e) =>
            onChange({ ...action, seconds: Math.round(Number(e.target.value) * secondsOf(unit)) })
          }
        />
      </Labelled>
      <Labelled label="Unit">
        <Select
          className={small}
          aria-label={`Step ${step}: wait unit`}
          value={unit}
          onChange={(e) => {
            const next = e.target.value as WaitUnit;
            setUnit(next);
            onChange({ ...action, seconds: Math.round(amount * secondsOf(next)) });
          }}
        >
          {WAIT_UNITS.map((u) => (
            <option key={u.unit} value={u.unit}>
              {u.unit}
            </option>
          ))}
        </Select>
      </Labelled>
    </div>
  );
}
