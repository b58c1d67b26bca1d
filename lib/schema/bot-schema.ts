import { z } from 'zod';
import { conversationTestsSchema } from '@/lib/conversation-tests/test-case';
import { blockAiSchema } from '../ai/block-ai';
import { attachmentTypeSchema } from './attachment-types';

/**
 * The bot schema JSON format: one document with blocks and arrows. The CLI's import/export,
 * the builder's import/export, the database rows and the test fixtures all go through these
 * schemas, so a file that validates here is a file every part of Blockbot accepts.
 */

export const BOT_SCHEMA_FORMAT = 'blockbot/schema@1';

/** bot-semantics §1: the kinds of block and whether a client moves into them. */
export const BLOCK_KINDS = [
  'start',
  'state',
  'not_state',
  'not_state_condition',
  'close_deal',
  'data_transfer',
  'comment',
] as const;
export const blockKindSchema = z.enum(BLOCK_KINDS);
export type BlockKind = z.infer<typeof blockKindSchema>;

/** What a kind of block does (bot-semantics §1), for the engine and the builder alike. */
export interface BlockKindRules {
  /** Entered at all: a comment is a note on the canvas, never run. */
  runs: boolean;
  /** Its trigger condition is checked first (start) or last (quick replies), or it has none. */
  trigger: 'first' | 'last' | null;
  /** The client moves into it (else stays where it was). */
  movesClient: boolean;
  /** Submits the deal's variables (a submission record, the CRM view, the webhook). */
  submits: boolean;
  /** After submitting, the deal stays open with its variables (yellow) or is closed (red). */
  keepsDeal: boolean;
}

/** bot-semantics §1's table of block kinds: the one place that says what each kind does. */
export const BLOCK_KIND_RULES: Readonly<Record<BlockKind, BlockKindRules>> = {
  start: { runs: true, trigger: 'first', movesClient: true, submits: false, keepsDeal: true },
  state: { runs: true, trigger: null, movesClient: true, submits: false, keepsDeal: true },
  not_state: { runs: true, trigger: null, movesClient: false, submits: false, keepsDeal: true },
  not_state_condition: { runs: true, trigger: 'last', movesClient: false, submits: false, keepsDeal: true },
  close_deal: { runs: true, trigger: null, movesClient: true, submits: true, keepsDeal: false },
  data_transfer: { runs: true, trigger: null, movesClient: true, submits: true, keepsDeal: true },
  comment: { runs: false, trigger: null, movesClient: false, submits: false, keepsDeal: true },
};

/** Kinds that carry a trigger condition (start blocks and quick replies). */
export const TRIGGER_KINDS: ReadonlySet<BlockKind> = new Set(
  BLOCK_KINDS.filter((kind) => BLOCK_KIND_RULES[kind].trigger !== null),
);
/** Kinds the client does not move into. */
export const NON_MOVING_KINDS: ReadonlySet<BlockKind> = new Set(
  BLOCK_KINDS.filter((kind) => !BLOCK_KIND_RULES[kind].movesClient),
);

export const MATCH_MODES = ['exact', 'keywords', 'fuzzy', 'regex'] as const;
export const matchModeSchema = z.enum(MATCH_MODES);
export type MatchMode = z.infer<typeof matchModeSchema>;

export { ATTACHMENT_TYPES, attachmentTypeSchema } from './attachment-types';

export const LIMITS = {
  blockNameLength: 200,
  blockTextLength: 10_000,
  formulaLength: 20_000,
  triggerBlocks: 500,
  blocks: 10_000,
  buttonText: 500,
} as const;

export const blockIdSchema = z.number().int().positive();

export const attachmentSchema = z.object({
  type: attachmentTypeSchema,
  url: z.string().min(1, 'attachment url is empty').max(2000),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** bot-semantics §5: a button; only `text` is required. */
export const buttonSchema = z.object(
  {
    type: z.enum(['reply', 'inline']).default('reply'),
    text: z.string().min(1, 'button text is empty').max(LIMITS.buttonText),
    line: z.number().int().min(0).optional(),
    index_in_line: z.number().int().min(0).optional(),
    url: z.string().max(2000).optional(),
    callback_data: z.string().max(64).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'invalid_type' ? 'must be a button: an object with its text' : undefined,
  },
);
export type Button = z.infer<typeof buttonSchema>;

/** Either a plain list, or the hint variant for messengers without buttons. */
export const buttonsSchema = z.union(
  [
    z.array(buttonSchema),
    z.object({ hint: z.string().max(LIMITS.buttonText), buttons: z.array(buttonSchema) }),
  ],
  { error: 'must be a list of buttons ([{"text": "Yes"}]) or {"hint": …, "buttons": [...]}' },
);
export type Buttons = z.infer<typeof buttonsSchema>;

/** The tg messenger takes a button's callback_data of 1-64 bytes of UTF-8, not characters. */
export const CALLBACK_DATA_MAX_BYTES = 64;
const utf8 = new TextEncoder();

/**
 * Buttons whose own callback_data is over 64 bytes, each at its path under the buttons (a
 * Cyrillic letter is 2 bytes, so 41 of them do not fit). Checked where buttons come in (saving or
 * importing a bot, the block editor, the API), not when a stored bot is read: one saved before
 * this check still loads and runs (the tg renderer then sends such a button's text as its data).
 * Hashing the data instead would lose it: a press must arrive as the data it routes by.
 */
export function callbackDataIssues(
  buttons: Buttons | undefined,
): { path: (string | number)[]; message: string }[] {
  if (!buttons) return [];
  const [list, under] = Array.isArray(buttons) ? [buttons, []] : [buttons.buttons, ['buttons']];
  return list.flatMap((button, i) => {
    const bytes = button.callback_data ? utf8.encode(button.callback_data).length : 0;
    if (bytes <= CALLBACK_DATA_MAX_BYTES) return [];
    return [
      {
        path: [...under, i, 'callback_data'],
        message: `must be at most ${CALLBACK_DATA_MAX_BYTES} bytes, the tg messenger's limit; this one is ${bytes} (a Cyrillic letter takes 2 bytes, an emoji 4): shorten it`,
      },
    ];
  });
}

/** Buttons as a request gives them: the stored form, with callback_data that the tg messenger takes. */
export const incomingButtonsSchema = buttonsSchema.superRefine((buttons, ctx) => {
  for (const { path, message } of callbackDataIssues(buttons))
    ctx.addIssue({ code: 'custom', path, message });
});

/**
 * A condition shared by start-block triggers, quick replies and condition arrows:
 * alternatives separated by `;`, a match mode, an optional comparison expression
 * (a formula expression that must also hold) and strings to ignore before matching.
 */
export const conditionSchema = z.object({
  alternatives: z.string().max(10_000).default(''),
  match: matchModeSchema.default('exact'),
  expression: z.string().max(LIMITS.formulaLength).default(''),
  ignore: z.string().max(2000).default(''),
});
export type Condition = z.infer<typeof conditionSchema>;

export const REQUEST_TYPES = ['GET', 'POST-data', 'POST-json'] as const;

/** A block or condition request (platform-interface.md, "Block requests"). */
export const blockRequestSchema = z.object({
  type: z.enum(REQUEST_TYPES).default('GET'),
  url: z.string().min(1, 'request url is empty').max(4000),
  /** A JSON object as text, e.g. {"Authorization": "Bearer #{token}"}. */
  headers: z.string().max(10_000).default(''),
  /** JSON parameters as text: the body for POST-json, key-values for POST-data. */
  params: z.string().max(100_000).default(''),
  /** Stored values: `path|0|key->var; other->var2`. */
  storedValues: z.string().max(10_000).default(''),
  /** Checked format of the JSON parameters; off lets `#{n}` go in without quotes as a number. */
  checkParamsFormat: z.boolean().default(true),
});
export type BlockRequest = z.infer<typeof blockRequestSchema>;

export const blockActionsSchema = z.object({
  /** Move the deal to this CRM state. */
  crmStateId: z.number().int().positive().optional(),
  addToLists: z.array(z.number().int().positive()).default([]),
  removeFromLists: z.array(z.number().int().positive()).default([]),
});
export type BlockActions = z.infer<typeof blockActionsSchema>;

export const positionSchema = z.object({ x: z.number().finite(), y: z.number().finite() });

const variableNamePattern = /^[A-Za-z_][A-Za-z0-9_.]*$/;
const variableNameIssue = (name: string) =>
  `"${name}" is not a variable name (letters, digits, _ and . ; not starting with a digit)`;

/** What an input block asks for (docs/builder.md, "Asking for an e-mail, a phone, a number…"). */
export const INPUT_TYPES = ['email', 'phone', 'number', 'date', 'choice'] as const;
export type InputType = (typeof INPUT_TYPES)[number];

/**
 * A ready input check on a block the client waits in: the engine checks each reply, stores a
 * valid one (normalised) in `variable` and routes on; a reply that fails gets `retryText` (or a
 * default that says what is expected) and, after `attempts` failures, the block's exit arrow.
 */
export const blockInputSchema = z
  .object({
    type: z.enum(INPUT_TYPES),
    variable: z
      .string()
      .min(1, 'input variable is empty: name the variable the answer goes into')
      .max(500)
      .refine((v) => variableNamePattern.test(v), { error: (i) => variableNameIssue(String(i.input)) }),
    /** The choices, separated by `;` (type choice). */
    choices: z.string().max(10_000).default(''),
    retryText: z.string().max(LIMITS.blockTextLength).default(''),
    /** Wrong answers before the exit arrow is followed. */
    attempts: z.number().int().min(1).max(20).default(3),
  })
  .refine((input) => input.type !== 'choice' || input.choices.split(';').some((c) => c.trim()), {
    path: ['choices'],
    error: 'a choice input needs its choices, separated by ;',
  });
export type BlockInputCheck = z.infer<typeof blockInputSchema>;

export const blockSchema = z.object({
  id: blockIdSchema,
  kind: blockKindSchema,
  name: z.string().max(LIMITS.blockNameLength).default(''),
  position: positionSchema.default({ x: 0, y: 0 }),
  /** Size of a comment note; blocks size themselves. */
  size: z.object({ width: z.number().positive(), height: z.number().positive() }).optional(),
  trigger: conditionSchema.optional(),
  text: z.string().max(LIMITS.blockTextLength).default(''),
  attachments: z.array(attachmentSchema).default([]),
  buttons: buttonsSchema.optional(),
  formula: z.string().max(LIMITS.formulaLength).default(''),
  request: blockRequestSchema.optional(),
  actions: blockActionsSchema.optional(),
  /** The AI step and the AI choice of arrow (docs/ai.md). */
  ai: blockAiSchema.optional(),
  /** A ready input check of the client's replies (e-mail, phone, number, date, choice). */
  input: blockInputSchema.optional(),
});
export type Block = z.infer<typeof blockSchema>;
export type BlockInput = z.input<typeof blockSchema>;

export const TIMER_UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;
export const timerSchema = z.union([
  z.object({ delay: z.number().min(0), unit: z.enum(TIMER_UNITS).default('seconds') }),
  /** `dd.mm.yyyy hh:mm` in the project's time zone; `#{...}` allowed. */
  z.object({ at: z.string().min(1).max(500) }),
]);
export type Timer = z.infer<typeof timerSchema>;

/**
 * bot-semantics §2. `continue` follows at once, in the same event, after the source block is
 * sent (no reply awaited); `condition` and `unconditional` wait for the client's reply.
 */
export const ARROW_KINDS = ['condition', 'unconditional', 'continue', 'timer'] as const;
export type ArrowKind = (typeof ARROW_KINDS)[number];

export const arrowSchema = z.object({
  id: z.number().int().positive(),
  from: blockIdSchema,
  to: blockIdSchema,
  kind: z.enum(ARROW_KINDS),
  condition: conditionSchema.optional(),
  timer: timerSchema.optional(),
  /** Timer: cancel the client's other pending timers when this one is scheduled. */
  cancelOtherTimers: z.boolean().default(false),
  /** Timer: do not fire when the client has left the source block meanwhile. */
  cancelIfLeft: z.boolean().default(true),
  /** Data collection: the reply is stored into this variable (`client.` goes to the profile). */
  collectInto: z.string().max(500).optional(),
  /** The first alternative of the condition becomes a reply button of the source block. */
  showAsButton: z.boolean().default(false),
  /** A condition request, run each time the condition is checked. */
  request: blockRequestSchema.optional(),
  /** What the arrow is for, in words: the AI choice of arrow picks by it (docs/ai.md). */
  description: z.string().max(500).optional(),
  /** Out of an input block: followed only when the replies failed its check `attempts` times. */
  inputExit: z.boolean().optional(),
});
export type Arrow = z.infer<typeof arrowSchema>;
export type ArrowInput = z.input<typeof arrowSchema>;

export const botSchemaSchema = z
  .object({
    format: z.literal(BOT_SCHEMA_FORMAT),
    blocks: z.array(blockSchema).max(LIMITS.blocks),
    arrows: z.array(arrowSchema),
    /**
     * The bot's conversation tests (docs/conversation-tests.md). Absent: a file or save that
     * leaves the stored tests as they are (the builder's edits, a file from before tests).
     */
    tests: conversationTestsSchema.optional(),
  })
  .superRefine((schema, ctx) => {
    const blockIds = new Set<number>();
    let triggerBlocks = 0;
    schema.blocks.forEach((block, i) => {
      if (blockIds.has(block.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['blocks', i, 'id'],
          message: `block id ${block.id} is used twice`,
        });
      }
      blockIds.add(block.id);
      if (TRIGGER_KINDS.has(block.kind)) triggerBlocks++;
      for (const { path, message } of callbackDataIssues(block.buttons))
        ctx.addIssue({ code: 'custom', path: ['blocks', i, 'buttons', ...path], message });
    });
    if (triggerBlocks > LIMITS.triggerBlocks) {
      ctx.addIssue({
        code: 'custom',
        path: ['blocks'],
        message: `at most ${LIMITS.triggerBlocks} start and not_state_condition blocks per bot (found ${triggerBlocks})`,
      });
    }
    const arrowIds = new Set<number>();
    schema.arrows.forEach((arrow, i) => {
      if (arrowIds.has(arrow.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['arrows', i, 'id'],
          message: `arrow id ${arrow.id} is used twice`,
        });
      }
      arrowIds.add(arrow.id);
      for (const end of ['from', 'to'] as const) {
        if (!blockIds.has(arrow[end])) {
          ctx.addIssue({
            code: 'custom',
            path: ['arrows', i, end],
            message: `arrow ${arrow.id} points ${end} block ${arrow[end]}, which does not exist`,
          });
        }
      }
      if (arrow.kind === 'timer' && !arrow.timer) {
        ctx.addIssue({
          code: 'custom',
          path: ['arrows', i, 'timer'],
          message: 'a timer arrow needs a timer',
        });
      }
      if (arrow.kind === 'condition' && !arrow.condition) {
        ctx.addIssue({
          code: 'custom',
          path: ['arrows', i, 'condition'],
          message: 'a condition arrow needs a condition',
        });
      }
      if (arrow.collectInto !== undefined && !variableNamePattern.test(arrow.collectInto)) {
        ctx.addIssue({
          code: 'custom',
          path: ['arrows', i, 'collectInto'],
          message: variableNameIssue(arrow.collectInto),
        });
      }
    });
  });
export type BotSchema = z.infer<typeof botSchemaSchema>;
export type BotSchemaInput = z.input<typeof botSchemaSchema>;

export function emptyBotSchema(): BotSchema {
  return { format: BOT_SCHEMA_FORMAT, blocks: [], arrows: [] };
}
