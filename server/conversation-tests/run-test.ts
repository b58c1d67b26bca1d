import { SIMULATED_CLIENT_TYPE } from '@/lib/channels/descriptors';
import { type ClientView, plainView } from '@/lib/conversation-tests/client-view';
import { compareStep, type FormulaVerdict } from '@/lib/conversation-tests/compare';
import type { ActualMessage, Difference, StepActual, TestResult } from '@/lib/conversation-tests/results';
import { type ConversationTest, DEFAULT_TEST_NOW, type StepAction } from '@/lib/conversation-tests/test-case';
import { messageWithCurrentButtons } from '@/lib/current-buttons';
import { compileExpression, isTruthy, type Plan, seededRandom } from '@/lib/formula';
import { testRunGroupId } from '@/lib/simulator/editions';
import { resolveClient } from '@/server/contacts/client-service';
import { saveClientVariables } from '@/server/contacts/client-variables-service';
import { readVariables } from '@/server/contacts/variable-store';
import type { EngineDeps } from '@/server/engine/engine-deps';
import type { EngineEvent } from '@/server/engine/events';
import { type EventResult, type EventTarget, handleEvent } from '@/server/engine/handle-event';
import type { Scheduler } from '@/server/engine/scheduler';
import { StubAnswers } from './test-stubs';

/**
 * One conversation test run through the engine every client runs on (docs/conversation-tests.md):
 * a client of its own (a simulator client of the run's group, deleted after), the test's clock
 * for `now` (a wait moves it on and fires every timer due by then, in order, with no job queued),
 * the test's stubs for requests, AI and messenger calls. After each step what the bot did is
 * compared with what the step expects; the first difference ends the test.
 */

/** Timers of a test fire on its clock, by the runner: nothing is queued. */
const NO_JOBS: Scheduler = { schedule: async () => null, cancel: async () => {} };

export interface TestRunTarget {
  projectId: number;
  version: number | 'draft';
  plan: Plan;
  timeZone: string;
  /** Names this run's clients apart from another run's. */
  runTag: string;
  /** How each channel kind's client sees a message (the channel modules' `clientView`). */
  views: ReadonlyMap<string, ClientView>;
  /** Read the variables after every step (recording); else only after a step that checks them. */
  allVariables?: boolean;
}

/** A test's result, with the blocks and arrows it passed through (coverage). */
export interface TestOutcome extends TestResult {
  blocks: Set<number>;
  arrows: Set<number>;
}

export async function runConversationTest(
  base: EngineDeps,
  target: TestRunTarget,
  test: ConversationTest,
): Promise<TestOutcome> {
  const started = performance.now();
  let clock = Date.parse(test.now ?? DEFAULT_TEST_NOW);
  const stubs = new StubAnswers(test.stubs, base.http, (ms) => {
    clock += ms;
  });
  const deps: EngineDeps = {
    db: base.db,
    http: stubs.http,
    scheduler: NO_JOBS,
    now: () => new Date(clock),
    random: seededRandom(test.id),
    testRun: stubs.hooks(test.timeZone),
  };
  const { projectId } = target;
  const ref = {
    clientType: SIMULATED_CLIENT_TYPE,
    groupId: testRunGroupId(target.version, test.channel),
    platformId: `${target.runTag}:${test.id}`,
    name: test.clientName,
  };
  const view = (test.channel && target.views.get(test.channel)) || plainView;
  const outcome: TestOutcome = {
    testId: test.id,
    name: test.name,
    passed: true,
    failedStep: null,
    difference: null,
    steps: [],
    ms: 0,
    blocks: new Set(),
    arrows: new Set(),
  };
  let clientId: number | null = null;
  // What the client has been sent so far: a button press needs its button shown.
  const sent: { direction: 'out'; blockId: number | null; buttons: string[] }[] = [];
  let currentBlock: number | null = null;
  const formulaHolds = formulaVerdict(target, test, () => clock);
  try {
    if (Object.keys(test.variables).length) {
      clientId = (await resolveClient(deps.db, projectId, ref)).id;
      await saveClientVariables(deps.db, projectId, [clientId], test.variables);
    }
    for (const [index, step] of test.steps.entries()) {
      stubs.live = step.live === true;
      stubs.unanswered = null;
      const eventTarget: EventTarget = clientId ? { clientId } : { ref };
      let refused: Difference | null = null;
      if (step.action.type === 'button') refused = buttonNotShown(step.action.text, sent, currentBlock);
      let results: EventResult[] = [];
      if (!refused)
        try {
          results = await perform(
            deps,
            projectId,
            eventTarget,
            step.action,
            (ms) => {
              clock = Math.max(clock, ms);
            },
            () => clock,
          );
        } catch (error) {
          // The step could not be carried out (a block the bot no longer has): the test fails there.
          refused = {
            field: 'action',
            expected: describeAction(step.action),
            actual: (error as Error).message,
            message: `The step could not be carried out: ${(error as Error).message}`,
            blockId: currentBlock,
          };
        }
      for (const result of results) {
        clientId = result.clientId;
        currentBlock = result.currentBlockId;
        for (const entry of result.log) {
          if (entry.kind !== 'block') continue;
          outcome.blocks.add(entry.data.blockId as number);
          if (typeof entry.data.arrowId === 'number') outcome.arrows.add(entry.data.arrowId);
        }
      }
      const messages = results.flatMap((r) => r.messages);
      for (const m of messages)
        sent.push({ direction: 'out', blockId: m.blockId, buttons: buttonTexts(m.buttons) });
      const actual: StepActual = {
        messages: messages.flatMap((m) =>
          view(m).map(
            (v): ActualMessage => ({
              text: v.text,
              buttons: v.buttons,
              attachments: v.attachments,
              blockId: m.blockId,
            }),
          ),
        ),
        block: currentBlock,
        variables:
          clientId && (target.allVariables || step.expect.variables.length)
            ? await clientVariables(deps, projectId, clientId)
            : {},
      };
      outcome.steps.push(actual);
      const unanswered = stubs.unanswered as Omit<Difference, 'blockId'> | null;
      const difference =
        refused ??
        (unanswered
          ? unansweredAt(unanswered, results, currentBlock)
          : await compareStep(step.expect, actual, formulaHolds));
      if (difference) {
        outcome.passed = false;
        outcome.failedStep = index;
        outcome.difference = difference;
        break;
      }
    }
  } finally {
    if (clientId) await deps.db.client.deleteMany({ where: { id: clientId, projectId } });
    else
      await deps.db.client.deleteMany({
        where: { projectId, clientType: ref.clientType, groupId: ref.groupId, platformId: ref.platformId },
      });
  }
  outcome.ms = Math.round(performance.now() - started);
  return outcome;
}

/**
 * A call no stub answered, placed in the block that made it: a request's log entry names its
 * block (or its arrow's), an AI call's its block.
 */
function unansweredAt(
  unanswered: Omit<Difference, 'blockId'>,
  results: readonly EventResult[],
  currentBlock: number | null,
): Difference {
  const kind = unanswered.field === 'ai' ? 'ai_error' : 'request';
  const entry = results
    .flatMap((r) => r.log)
    .findLast(
      (e) => e.kind === kind && (typeof e.data.blockId === 'number' || typeof e.data.arrowId === 'number'),
    );
  const blockId = typeof entry?.data.blockId === 'number' ? entry.data.blockId : currentBlock;
  const where =
    typeof entry?.data.arrowId === 'number' ? `Arrow ${entry.data.arrowId}'s condition` : `Block ${blockId}`;
  return { ...unanswered, message: `${where}: ${unanswered.message}`, blockId };
}

const buttonTexts = (buttons: EventResult['messages'][number]['buttons']): string[] =>
  (buttons ? (Array.isArray(buttons) ? buttons : buttons.buttons) : [])
    .filter((b) => !b.url)
    .map((b) => b.text);

/** A press of a button the bot does not show now fails the step (docs/builder.md, "Buttons that stay"). */
function buttonNotShown(
  text: string,
  sent: readonly { direction: 'out'; blockId: number | null; buttons: string[] }[],
  currentBlock: number | null,
): Difference | null {
  const shown = messageWithCurrentButtons(sent, currentBlock, (m) => m.buttons.length > 0)?.buttons ?? [];
  if (shown.includes(text)) return null;
  return {
    field: 'button',
    expected: `a button [${text}]`,
    actual: shown.length ? shown.map((b) => `[${b}]`).join(' ') : 'no buttons',
    message: `The client cannot press [${text}]: the bot does not show it now.`,
    blockId: currentBlock,
  };
}

/** Carries out a step's action: one event, or (a wait) every timer due by the end of it. */
async function perform(
  deps: EngineDeps,
  projectId: number,
  target: EventTarget,
  action: StepAction,
  advanceTo: (ms: number) => void,
  now: () => number,
): Promise<EventResult[]> {
  if (action.type !== 'wait') return [await handleEvent(deps, projectId, target, eventOf(action))];
  const until = now() + action.seconds * 1000;
  const results: EventResult[] = [];
  if ('clientId' in target) {
    // Each due timer fires at its own time, so one scheduled by it counts from then.
    for (;;) {
      const due = await deps.db.scheduledSend.findFirst({
        where: { projectId, clientId: target.clientId, status: 'pending', runAt: { lte: new Date(until) } },
        orderBy: [{ runAt: 'asc' }, { id: 'asc' }],
        select: { id: true, runAt: true },
      });
      if (!due) break;
      advanceTo(due.runAt.getTime());
      const result = await handleEvent(deps, projectId, target, {
        type: 'scheduled',
        scheduledSendId: due.id,
      });
      results.push(result);
      // An event that left the timer pending (it could not run) would fire forever.
      const still = await deps.db.scheduledSend.count({ where: { id: due.id, status: 'pending' } });
      if (still) await deps.db.scheduledSend.update({ where: { id: due.id }, data: { status: 'cancelled' } });
    }
  }
  advanceTo(until);
  return results;
}

function describeAction(action: StepAction): string {
  if (action.type === 'enter') return `enter block ${action.blockId}`;
  if (action.type === 'wait') return `wait ${action.seconds} s`;
  return `${action.type} "${action.text}"`;
}

function eventOf(action: Exclude<StepAction, { type: 'wait' }>): EngineEvent {
  switch (action.type) {
    case 'text':
    case 'button':
      return { type: 'message', text: action.text };
    case 'attachment':
      return { type: 'message', text: action.text, attachments: [{ type: action.kind, url: action.url }] };
    case 'callback':
      return { type: 'message', text: action.text, messageFromOutside: 1, variables: action.variables };
    case 'enter':
      return { type: 'enter_block', blockId: action.blockId, messageFromOutside: 1 };
  }
}

/** The client's variables after a step, by the names formulas use: deal ones bare, `client.`, `project.`. */
async function clientVariables(deps: EngineDeps, projectId: number, clientId: number) {
  const deal = await deps.db.deal.findFirst({
    where: { projectId, clientId, closedAt: null },
    orderBy: { id: 'desc' },
    select: { id: true },
  });
  const scopes = await readVariables(deps.db, { projectId, clientId, dealId: deal?.id ?? null });
  const named: Record<string, string> = {};
  for (const [name, value] of Object.entries(scopes.project)) named[`project.${name}`] = value;
  for (const [name, value] of Object.entries(scopes.client)) named[`client.${name}`] = value;
  for (const [name, value] of Object.entries(scopes.deal)) named[name] = value;
  return named;
}

/** A variable check's formula, run by the formula language on the step's variables (read-only), `value` the checked one's. */
function formulaVerdict(target: TestRunTarget, test: ConversationTest, now: () => number): FormulaVerdict {
  return async (formula, variables, value) => {
    const compiled = compileExpression(formula);
    const error = compiled.diagnostics.find((d) => d.severity === 'error');
    if (error) return `the formula does not compile: ${error.message}`;
    try {
      const result = await compiled.evaluate({
        store: { get: (name) => (name === 'value' ? value : variables[name]), set: () => {} },
        plan: target.plan,
        now: () => new Date(now()),
        timeZone: test.timeZone ?? target.timeZone,
      });
      return isTruthy(result) ? true : '';
    } catch (e) {
      return (e as Error).message;
    }
  };
}
