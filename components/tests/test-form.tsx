'use client';

import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useTRPC } from '@/components/trpc/client';
import { FormActions } from '@/components/ui/form-actions';
import { Input, Select } from '@/components/ui/input';
import { CONNECTABLE_KINDS, descriptorOfKind } from '@/lib/channels/descriptors';
import {
  type ConversationTest,
  conversationTestSchema,
  DEFAULT_TEST_NOW,
} from '@/lib/conversation-tests/test-case';
import { AddButton, Labelled, replaced, Section, small, swapped, VariableRows, without } from './form-parts';
import { StepEditor } from './step-editor';
import { isJson, StubsEditor } from './stubs-editor';
import { issueText } from './test-draft';

/** A test being written: a new one has no id yet (the server gives it). */
export type TestDraft = Omit<ConversationTest, 'id'> & { id?: number };

const NEW_TEST: TestDraft = {
  name: '',
  // The format's own default name.
  clientName: conversationTestSchema.shape.clientName.parse(undefined),
  variables: {},
  stubs: { requests: [], ai: [], messenger: [] },
  steps: [{ action: { type: 'text', text: '' }, expect: { variables: [] } }],
};

const draftSchema = conversationTestSchema.partial({ id: true });

/**
 * The test form (docs/conversation-tests.md, "In the builder"): who the client is and how the
 * test starts, the steps with what the bot must do in each, and the stubs. Checked with the
 * format's own schema before it is sent; the server's answer names the field it refuses.
 */
export function TestForm({
  projectId,
  test,
  onDone,
}: {
  projectId: number;
  /** The test to edit; null for a new one. */
  test: ConversationTest | null;
  onDone(saved: boolean): void;
}) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState<TestDraft>(test ?? NEW_TEST);
  const [problems, setProblems] = useState<string[]>([]);
  const save = useMutation(trpc.tests.save.mutationOptions({ onSuccess: () => onDone(true) }));
  const set = <K extends keyof TestDraft>(key: K, value: TestDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const steps = draft.steps;
  // Steps keep their keys as they move or go: a step's own state (a wait's unit, a callback's
  // variable rows) stays with it.
  const [stepKeys, setStepKeys] = useState(() => steps.map((_, i) => i));
  const nextKey = useRef(steps.length);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = draftSchema.safeParse(draft);
    const badResult = draft.stubs.messenger.findIndex((s) => !isJson(s.result));
    const found = [
      ...(parsed.success ? [] : parsed.error.issues.map(issueText)),
      ...(badResult >= 0 ? [`stubs.messenger[${badResult}].result: is not JSON`] : []),
    ];
    setProblems(found);
    if (parsed.success && !found.length) save.mutate({ projectId, test: parsed.data });
  }

  return (
    <form
      onSubmit={submit}
      className="space-y-3 p-3"
      aria-label={test ? `Edit test ${test.name}` : 'New test'}
      noValidate
    >
      <h3 className="text-sm font-semibold text-slate-800">{test ? 'Edit the test' : 'New test'}</h3>
      <Labelled label="Name">
        <Input className={small} value={draft.name} onChange={(e) => set('name', e.target.value)} />
      </Labelled>
      <div className="grid grid-cols-2 gap-2">
        <Labelled label="Runs as">
          <Select
            className={small}
            value={draft.channel ?? ''}
            onChange={(e) => set('channel', e.target.value || undefined)}
            title="The messenger whose client the test plays: its limits and numbered buttons apply"
          >
            <option value="">Plain chat</option>
            {CONNECTABLE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {descriptorOfKind(kind)?.label ?? kind}
              </option>
            ))}
          </Select>
        </Labelled>
        <Labelled label="Client's name">
          <Input
            className={small}
            value={draft.clientName}
            onChange={(e) => set('clientName', e.target.value)}
          />
        </Labelled>
        <Labelled label="Starts at">
          <Input
            className={small}
            placeholder={DEFAULT_TEST_NOW.replace('.000Z', 'Z')}
            value={draft.now ?? ''}
            onChange={(e) => set('now', e.target.value || undefined)}
          />
        </Labelled>
        <Labelled label="Time zone">
          <Input
            className={small}
            placeholder="The project's"
            value={draft.timeZone ?? ''}
            onChange={(e) => set('timeZone', e.target.value || undefined)}
          />
        </Labelled>
      </div>
      <Section title="Variables at the start">
        <VariableRows label="Start variable" value={draft.variables} onChange={(v) => set('variables', v)} />
      </Section>
      <ol className="space-y-2">
        {steps.map((step, i) => (
          <StepEditor
            key={stepKeys[i]}
            n={i + 1}
            step={step}
            count={steps.length}
            onChange={(s) => set('steps', replaced(steps, i, s))}
            onMove={(by) => {
              set('steps', swapped(steps, i, i + by));
              setStepKeys(swapped(stepKeys, i, i + by));
            }}
            onRemove={() => {
              set('steps', without(steps, i));
              setStepKeys(without(stepKeys, i));
            }}
          />
        ))}
      </ol>
      <AddButton
        label="Step"
        onClick={() => {
          set('steps', [...steps, { action: { type: 'text', text: '' }, expect: { variables: [] } }]);
          setStepKeys([...stepKeys, nextKey.current++]);
        }}
      />
      <StubsEditor stubs={draft.stubs} onChange={(stubs) => set('stubs', stubs)} />
      {/* The problems sit with the buttons, in sight however far down the form is scrolled. */}
      <div className="sticky bottom-0 space-y-2 border-t border-slate-100 bg-white py-2">
        {problems.length ? (
          <ul
            className="max-h-32 space-y-0.5 overflow-y-auto rounded-md bg-red-50 p-2 text-xs text-red-800"
            role="alert"
            data-testid="test-problems"
          >
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        ) : null}
        <FormActions
          error={save.error}
          pending={save.isPending}
          submit="Save the test"
          onCancel={() => onDone(false)}
        />
      </div>
    </form>
  );
}
