import { z } from 'zod';
import { CONNECTABLE_KINDS, descriptorOfType, SIMULATED_CLIENT_TYPE } from '@/lib/channels/descriptors';
import { attachmentTypeSchema } from '@/lib/schema/attachment-types';

/**
 * A conversation test (docs/conversation-tests.md): what the client does, step by step, and what
 * the bot must answer each time. Part of the bot schema file (`tests`), so a version keeps the
 * tests it was published with. Every limit here is checked where a test comes in (the Tests
 * panel's form, a schema file, the CLI).
 */

export const TEST_LIMITS = { tests: 500, steps: 100, stubs: 200, text: 10_000, name: 200 } as const;

/** How an expected text is compared with what the bot sent. */
export const TEXT_MATCHES = ['exact', 'contains', 'pattern'] as const;
export type TextMatch = (typeof TEXT_MATCHES)[number];

const text = z
  .string()
  .max(TEST_LIMITS.text, { error: `A text has at most ${TEST_LIMITS.text} characters.` });
/** A block's id (as in lib/schema, which imports this file: no import back). */
const blockIdSchema = z.number().int().positive();

const patternText = z.string().superRefine((value, ctx) => {
  try {
    new RegExp(value, 'u');
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `is not a valid pattern: ${(error as Error).message}` });
  }
});

export const expectedTextSchema = z.discriminatedUnion('match', [
  z.object({ match: z.literal('exact'), value: text }),
  z.object({ match: z.literal('contains'), value: text }),
  z.object({ match: z.literal('pattern'), value: patternText }),
]);
export type ExpectedText = z.infer<typeof expectedTextSchema>;

/** One message the bot must send; a part left out is ignored (an AI's wording, a date). */
export const expectedMessageSchema = z.object({
  text: expectedTextSchema.optional(),
  /** The buttons' texts in order; [] asserts none. */
  buttons: z.array(z.string().max(500)).max(100).optional(),
  /** The attachments' types in order; [] asserts none. */
  attachments: z.array(attachmentTypeSchema).max(20).optional(),
});
export type ExpectedMessage = z.infer<typeof expectedMessageSchema>;

const variableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_.]*$/, {
    error: 'A variable name is letters, digits, _ and dots, like client.email.',
  })
  .max(200);

/** A variable after the step: equal to a value, or making a formula true (`value` is the variable's). */
export const variableCheckSchema = z.union([
  z.object({ name: variableName, equals: z.string().max(TEST_LIMITS.text) }),
  z.object({ name: variableName, formula: z.string().min(1, { error: 'The formula is empty.' }).max(2_000) }),
]);
export type VariableCheck = z.infer<typeof variableCheckSchema>;

export const stepExpectationSchema = z.object({
  /** The bot's messages of the step, in order; absent: not checked, [] asserts that it sent none. */
  messages: z.array(expectedMessageSchema).max(50).optional(),
  /** The block the client is in after the step; absent: not checked, null: in none. */
  block: blockIdSchema.nullable().optional(),
  variables: z.array(variableCheckSchema).max(50).default([]),
});
export type StepExpectation = z.infer<typeof stepExpectationSchema>;

const MAX_WAIT_SECONDS = 400 * 86_400;

/** What the client (or the world) does in a step. */
export const stepActionSchema = z.discriminatedUnion('type', [
  /** The client writes. */
  z.object({ type: z.literal('text'), text: text.min(1, { error: 'The text is empty.' }) }),
  /** The client presses a reply button (it sends its text): the bot must show that button. */
  z.object({ type: z.literal('button'), text: z.string().min(1, { error: 'Name the button.' }).max(500) }),
  /** The client sends a file, with an optional caption. */
  z.object({
    type: z.literal('attachment'),
    kind: attachmentTypeSchema,
    url: z.url({ error: 'The attachment needs an address like https://example.com/photo.jpg.' }).max(2_000),
    text: text.default(''),
  }),
  /** The integrator's `callback` (a system message, message_from_outside 1) with its variables. */
  z.object({
    type: z.literal('callback'),
    text: text,
    variables: z.record(variableName, z.string().max(TEST_LIMITS.text)).default({}),
  }),
  /** The API's `message` with `message_id`: the client is sent into the block, which runs. */
  z.object({ type: z.literal('enter'), blockId: blockIdSchema }),
  /** Time passes on the test's clock: every timer and delayed message due by then fires. */
  z.object({
    type: z.literal('wait'),
    seconds: z
      .number()
      .int({ error: 'A wait is a whole number of seconds.' })
      .positive({ error: 'A wait is at least 1 second.' })
      .max(MAX_WAIT_SECONDS, { error: 'A wait is at most 400 days.' }),
  }),
]);
export type StepAction = z.infer<typeof stepActionSchema>;

export const testStepSchema = z.object({
  action: stepActionSchema,
  expect: stepExpectationSchema.default({ variables: [] }),
  /** This step's requests and AI calls go to the network, unstubbed. */
  live: z.boolean().optional(),
});
export type TestStep = z.infer<typeof testStepSchema>;

const headerRecord = z.record(z.string().max(200), z.string().max(8_000));

/** A block or condition request's, or a `requests_*` function's, answer in a test. */
export const requestStubSchema = z.object({
  /** Any method when absent. */
  method: z.enum(['GET', 'POST']).optional(),
  /** The address the request goes to: equal, or starting with it (`prefix`), or a pattern. */
  url: z.string().min(1, { error: 'Give the address the stub answers.' }).max(2_000),
  match: z.enum(['exact', 'prefix', 'pattern']).default('prefix'),
  status: z.number().int().min(100).max(599).default(200),
  headers: headerRecord.default({}),
  body: z.string().max(1_000_000).default(''),
  /** How long the answer takes on the test's clock, ms. */
  delayMs: z.number().int().min(0).max(120_000).default(0),
  /** Answers one request only, in order with the other stubs of its address (a recorded sequence). */
  once: z.boolean().optional(),
});
export type RequestStub = z.infer<typeof requestStubSchema>;

/** An AI call's answer in a test: its text, or the tool it calls (the AI choice of arrow). */
export const aiStubSchema = z.object({
  /** The block whose AI step or arrow choice it answers; any block when absent. */
  blockId: blockIdSchema.optional(),
  text: z.string().max(100_000).default(''),
  toolCall: z
    .object({ name: z.string().min(1).max(200), arguments: z.string().max(100_000).default('{}') })
    .optional(),
  once: z.boolean().optional(),
});
export type AiStub = z.infer<typeof aiStubSchema>;

/** A messenger function's result in a test (`tg_get_chat_member`…), as JSON. */
export const messengerStubSchema = z.object({
  function: z.string().min(1).max(100),
  result: z.string().max(100_000).default('null'),
  once: z.boolean().optional(),
});
export type MessengerStub = z.infer<typeof messengerStubSchema>;

export const testStubsSchema = z.object({
  requests: z.array(requestStubSchema).max(TEST_LIMITS.stubs).default([]),
  ai: z.array(aiStubSchema).max(TEST_LIMITS.stubs).default([]),
  messenger: z.array(messengerStubSchema).max(TEST_LIMITS.stubs).default([]),
});
export type TestStubs = z.infer<typeof testStubsSchema>;

/** The channels a test can run as: each connectable kind; the simulator's plain chat when absent. */
export const testChannelSchema = z.string().refine((kind) => CONNECTABLE_KINDS.includes(kind), {
  error: `A test runs as one of: ${CONNECTABLE_KINDS.join(', ')}.`,
});

/** When a test's clock starts unless it says: a fixed Monday morning, so dates never drift. */
export const DEFAULT_TEST_NOW = '2026-01-05T09:00:00.000Z';

export const conversationTestSchema = z.object({
  id: z.number().int().positive(),
  name: z
    .string()
    .trim()
    .min(1, { error: 'Name the test.' })
    .max(TEST_LIMITS.name, { error: `A test's name has at most ${TEST_LIMITS.name} characters.` }),
  channel: testChannelSchema.optional(),
  /** "now" when the test starts (ISO 8601); DEFAULT_TEST_NOW when absent. */
  now: z.iso
    .datetime({ offset: true, error: 'The start time is a date and time like 2026-01-05T09:00:00Z.' })
    .optional(),
  /** The time zone the bot runs in during the test (IANA); the project's when absent. */
  timeZone: z.string().max(100).optional(),
  /** The test client's name (`#{name}`); the simulator's word for its client by default. */
  clientName: z
    .string()
    .max(200)
    .default(descriptorOfType(SIMULATED_CLIENT_TYPE)?.person ?? ''),
  /** Variables set before the first step (client.*, deal variables, project.* are read-only). */
  variables: z.record(variableName, z.string().max(TEST_LIMITS.text)).default({}),
  stubs: testStubsSchema.default({ requests: [], ai: [], messenger: [] }),
  steps: z
    .array(testStepSchema)
    .min(1, { error: 'A test needs at least one step.' })
    .max(TEST_LIMITS.steps, { error: `A test has at most ${TEST_LIMITS.steps} steps.` }),
});
export type ConversationTest = z.infer<typeof conversationTestSchema>;
export type ConversationTestInput = z.input<typeof conversationTestSchema>;

export const conversationTestsSchema = z
  .array(conversationTestSchema)
  .max(TEST_LIMITS.tests, { error: `A bot has at most ${TEST_LIMITS.tests} tests.` })
  .superRefine((tests, ctx) => {
    const ids = new Set<number>();
    tests.forEach((test, i) => {
      if (ids.has(test.id))
        ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `test id ${test.id} is used twice` });
      ids.add(test.id);
    });
  });
