import { randomUUID } from 'node:crypto';
import type { StepActual } from '@/lib/conversation-tests/results';
import type {
  ConversationTest,
  ConversationTestInput,
  ExpectedMessage,
  RequestStub,
  StepAction,
  VariableCheck,
} from '@/lib/conversation-tests/test-case';
import { MESSAGE_FROM } from '@/lib/history-message';
import type { Attachment } from '@/lib/schema';
import { simulatorClientRef } from '@/server/channels/simulator/simulator-service';
import type { EngineDeps } from '@/server/engine/engine-deps';
import { DomainError } from '@/server/errors';
import { parseTest, saveTest } from '@/server/projects/bot-test-store';
import { channelViews } from './channel-views';
import { runConversationTest } from './run-test';

/**
 * "Save as test" (docs/conversation-tests.md, "Recording"): the member's simulator conversation
 * with the draft becomes a test. Its steps are what the client did (each message, button press,
 * attachment and callback, and a wait for each timer that fired); the requests and AI answers
 * its log recorded become the test's stubs, in order. The steps are then replayed through the
 * runner, on those stubs, and what the bot did at each becomes what the step expects: its
 * messages exactly (text, buttons, attachments), the block reached and the variables the step
 * changed. The designer then loosens what should not be compared (dates, random values, AI wording).
 */
export async function recordSimulatorTest(
  deps: EngineDeps,
  projectId: number,
  userId: string,
  name: string,
): Promise<ConversationTest> {
  const { clientType, groupId, platformId } = simulatorClientRef(userId, '');
  const client = await deps.db.client.findFirst({
    where: { projectId, clientType, groupId, platformId },
    select: { id: true, name: true },
  });
  if (!client)
    throw new DomainError(
      'invalid',
      'The simulator has no conversation to save: talk to the bot in the simulator first.',
    );
  const [messages, log, timers] = await Promise.all([
    deps.db.message.findMany({
      where: { projectId, clientId: client.id },
      orderBy: { id: 'asc' },
      select: { direction: true, text: true, attachments: true, buttons: true, messageFromOutside: true },
      take: 1_000,
    }),
    deps.db.engineLogEntry.findMany({
      where: { projectId, clientId: client.id, kind: { in: ['event', 'timer_fired', 'request', 'ai'] } },
      orderBy: { id: 'asc' },
      select: { kind: true, data: true },
      take: 5_000,
    }),
    deps.db.scheduledSend.findMany({
      where: { projectId, clientId: client.id, kind: 'timer', status: 'sent' },
      orderBy: { id: 'asc' },
      select: { arrowId: true, runAt: true, createdAt: true },
    }),
  ]);
  const actions = recordedActions(messages, log, timers);
  if (!actions.length)
    throw new DomainError(
      'invalid',
      'The simulator conversation has no message from the client to replay yet.',
    );
  const draft = parseTest({
    id: 1,
    name,
    ...(client.name ? { clientName: client.name } : {}),
    stubs: { requests: requestStubs(log), ai: aiStubs(log), messenger: [] },
    steps: actions.slice(0, 100).map((action) => ({ action })),
  });
  const project = await deps.db.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { plan: true, timeZone: true },
  });
  const replay = await runConversationTest(
    deps,
    {
      projectId,
      version: 'draft',
      plan: project.plan,
      timeZone: project.timeZone,
      runTag: `record-${randomUUID()}`,
      allVariables: true,
      views: channelViews(),
    },
    draft,
  );
  let before: Record<string, string> = {};
  const steps = draft.steps.map((step, i) => {
    const actual = replay.steps[i];
    if (!actual) return step;
    const expect = expectationOf(actual, before);
    before = actual.variables;
    return { ...step, expect };
  });
  const { id: _new, ...test } = { ...draft, steps } satisfies ConversationTestInput;
  return saveTest(deps.db, projectId, test);
}

type Logged = { kind: string; data: unknown };

/** The client's steps, in order: the log's events name the client's messages, its timers the waits. */
function recordedActions(
  messages: readonly {
    direction: string;
    text: string;
    attachments: unknown;
    buttons: unknown;
    messageFromOutside: number;
  }[],
  log: readonly Logged[],
  timers: readonly { arrowId: number | null; runAt: Date; createdAt: Date }[],
): StepAction[] {
  const incoming = messages.filter(
    (m) =>
      m.direction === 'in' &&
      (m.messageFromOutside === MESSAGE_FROM.client || m.messageFromOutside === MESSAGE_FROM.api),
  );
  const actions: StepAction[] = [];
  let shown: string[] = [];
  let next = 0;
  let timer = 0;
  const outgoingAfter = messages.filter((m) => m.direction === 'out');
  let out = 0;
  for (const entry of log) {
    if (entry.kind === 'timer_fired') {
      const sent = timers[timer++];
      const seconds = sent
        ? Math.max(1, Math.ceil((sent.runAt.getTime() - sent.createdAt.getTime()) / 1000))
        : 60;
      actions.push({ type: 'wait', seconds });
      continue;
    }
    if (entry.kind !== 'event') continue;
    const message = incoming[next++];
    if (!message) break;
    // The buttons the client saw before writing: the newest message with buttons so far.
    const at = messages.indexOf(message);
    for (; out < outgoingAfter.length && messages.indexOf(outgoingAfter[out]) < at; out++) {
      const texts = buttonTexts(outgoingAfter[out].buttons);
      if (texts.length) shown = texts;
    }
    actions.push(actionOf(message, shown));
  }
  return actions;
}

function actionOf(
  message: { text: string; attachments: unknown; messageFromOutside: number },
  shown: readonly string[],
): StepAction {
  if (message.messageFromOutside === MESSAGE_FROM.api)
    return { type: 'callback', text: message.text, variables: {} };
  const attachment = (message.attachments as Attachment[] | null)?.[0];
  if (attachment)
    return { type: 'attachment', kind: attachment.type, url: attachment.url, text: message.text };
  if (shown.includes(message.text)) return { type: 'button', text: message.text };
  return { type: 'text', text: message.text || ' ' };
}

function buttonTexts(buttons: unknown): string[] {
  const list = (
    Array.isArray(buttons) ? buttons : ((buttons as { buttons?: unknown[] } | null)?.buttons ?? [])
  ) as {
    text?: string;
    url?: string;
  }[];
  return list.filter((b) => b.text && !b.url).map((b) => b.text as string);
}

/** Each request the conversation made, answered as it was then, once and in order. */
function requestStubs(log: readonly Logged[]): RequestStub[] {
  return log.flatMap((entry) => {
    if (entry.kind !== 'request') return [];
    const data = entry.data as {
      request?: { method?: string; url?: string };
      status?: number;
      reply?: string;
    };
    if (!data.request?.url || !data.status) return [];
    return [
      {
        method: data.request.method === 'GET' ? 'GET' : 'POST',
        url: data.request.url,
        match: 'exact',
        status: data.status,
        headers: {},
        body: data.reply ?? '',
        delayMs: 0,
        once: true,
      } satisfies RequestStub,
    ];
  });
}

function aiStubs(log: readonly Logged[]) {
  return log.flatMap((entry) => {
    if (entry.kind !== 'ai') return [];
    const data = entry.data as { blockId?: number; answer?: string };
    return [{ ...(data.blockId ? { blockId: data.blockId } : {}), text: data.answer ?? '', once: true }];
  });
}

/** What the replayed step did, as what it must do: every message exactly, the block, the variables it changed. */
function expectationOf(actual: StepActual, before: Record<string, string>) {
  const messages: ExpectedMessage[] = actual.messages.map((m) => ({
    text: { match: 'exact', value: m.text },
    buttons: m.buttons,
    attachments: m.attachments as ExpectedMessage['attachments'],
  }));
  const variables: VariableCheck[] = Object.entries(actual.variables)
    .filter(([name, value]) => before[name] !== value && !name.startsWith('project.'))
    .map(([name, value]) => ({ name, equals: value }));
  return { messages, block: actual.block, variables };
}
