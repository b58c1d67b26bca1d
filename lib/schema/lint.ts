import { descriptorOfKind } from '@/lib/channels/descriptors';
import { builtins, type Plan, planAllows, planMessage } from '@/lib/formula/catalogue';
import { children, type Expr, parseExpression, parseFormula } from '@/lib/formula/parser';
import { isSystemVariable } from '@/lib/formula/system-variables';
import { conditionCovers, matchCondition, matchesEverything } from '@/lib/matching';
import { findPlaceholders, isVariableName, parseStoredValues } from '@/lib/template';
import {
  type Arrow,
  type Block,
  type BlockRequest,
  type BotSchema,
  type Condition,
  LIMITS,
  NON_MOVING_KINDS,
  TRIGGER_KINDS,
} from './bot-schema';
import { buttonList } from './buttons';

/**
 * Bot lint: what a schema lets the designer build but will never run as they expect (an arrow
 * that can never fire, a block nothing leads to, a variable nothing sets). Pure, so the
 * builder, the CLI and the server report the same problems. Each rule is one function with a
 * stable id; a problem says what is wrong, how to fix it, and which block or arrow it is on.
 */

export type LintSeverity = 'error' | 'warning' | 'info';
export type LintTarget = { type: 'block'; id: number } | { type: 'arrow'; id: number } | { type: 'bot' };

export interface LintProblem {
  rule: string;
  severity: LintSeverity;
  message: string;
  target: LintTarget;
}

/** What a client's messenger can show, for the `messenger-cannot-show` rule. */
export interface MessengerCapabilities {
  /** As the designer knows it: `tg`, `widget`. */
  name: string;
  /** Shows buttons at all (else only the hint variant reaches the client). */
  buttons: boolean;
  /** Most buttons one message can carry. */
  maxButtons?: number;
  /** Longest title shown as a button. */
  buttonTitleLength?: number;
  /** The attachment kinds it shows, when not every kind (telephony: none, it speaks). */
  media?: readonly string[];
}

/**
 * What a channel kind can show, as the rule reads it (lib/channels/descriptors.ts); none for a
 * kind that shows every block (buttons without a limit).
 */
export function capabilitiesOf(kind: string): MessengerCapabilities | undefined {
  const descriptor = descriptorOfKind(kind);
  if (!descriptor) return undefined;
  const { buttons, maxButtons, buttonTitleLength, media } = descriptor.capabilities;
  const someMedia = MEDIA_KINDS.some((kind) => !media.includes(kind));
  if (buttons && maxButtons === undefined && !someMedia) return undefined;
  return {
    name: descriptor.kind,
    buttons,
    ...(maxButtons !== undefined && { maxButtons }),
    ...(buttonTitleLength !== undefined && { buttonTitleLength }),
    ...(someMedia && { media }),
  };
}

/** The messengers a project's connected channels (by kind) bring to the `messenger-cannot-show` rule. */
export function messengersOf(channelKinds: readonly string[]): MessengerCapabilities[] {
  return [...new Set(channelKinds)].flatMap((kind) => capabilitiesOf(kind) ?? []);
}

export interface LintOptions {
  /** The messengers the bot's clients use (its connected channels); none: that rule is skipped. */
  messengers?: readonly MessengerCapabilities[];
  /** The project's plan, for the `function-needs-plan` rule; none: that rule is skipped. */
  plan?: Plan;
  /** The ids of the project's client lists, for the `unknown-list` rule; none: that rule is skipped. */
  listIds?: readonly number[];
  /** The project's CRM stage ids, for the `unknown-crm-stage` rule; none: that rule is skipped. */
  crmStateIds?: readonly number[];
}

type Problem = Omit<LintProblem, 'rule'>;
type Rule = (bot: LintContext, options: LintOptions) => Problem[];

/** The schema indexed once for all rules. */
interface LintContext {
  schema: Pick<BotSchema, 'blocks' | 'arrows'>;
  blocks: Map<number, Block>;
  arrowsFrom: Map<number, Arrow[]>;
  /** Every variable the schema sets (and the system ones), computed by the first rule that needs it. */
  known?: Set<string>;
  /** What takes every message a condition would match, computed by the first rule that needs it. */
  shadows?: Shadows;
  /** The blocks formulas send clients to by id, computed by the first rule that needs them. */
  sentTo?: Set<number>;
  /** Arrows by the block they lead to, computed by the first rule that needs them. */
  arrowsInto?: Map<number, Arrow[]>;
}

const block = (id: number) => ({ type: 'block', id }) as const;
const arrow = (id: number) => ({ type: 'arrow', id }) as const;
const runs = (b: Block | undefined) => b !== undefined && b.kind !== 'comment';
/** Arrows checked against the client's reply (the engine routes only out of the client's current block). */
const waitsForReply = (a: Arrow) => a.kind === 'condition' || a.kind === 'unconditional';

/** Whether an arrow can ever fire, the reason it cannot otherwise (for the rules and reachability). */
function firesNever(bot: LintContext, a: Arrow): 'comment' | 'not-state' | 'continued' | 'shadowed' | null {
  return placedNever(bot, a) ?? (shadowsOf(bot).arrows.has(a.id) ? 'shadowed' : null);
}

/** Whether where an arrow starts or ends keeps it from ever firing, whatever its condition. */
function placedNever(bot: LintContext, a: Arrow): 'comment' | 'not-state' | 'continued' | null {
  const from = bot.blocks.get(a.from);
  if (!runs(from) || !runs(bot.blocks.get(a.to))) return 'comment';
  if (from && waitsForReply(a) && NON_MOVING_KINDS.has(from.kind)) return 'not-state';
  if (waitsForReply(a) && continuedAway(bot, a.from)) return 'continued';
  return null;
}

/**
 * The continue arrow that takes the client out of a block as soon as it is entered: into another
 * block the client moves into (followed at once, so no reply is ever routed from this block).
 */
function continuedAway(bot: LintContext, blockId: number): Arrow | undefined {
  return (bot.arrowsFrom.get(blockId) ?? []).find((a) => {
    const to = bot.blocks.get(a.to);
    return (
      a.kind === 'continue' && a.to !== blockId && runs(to) && !NON_MOVING_KINDS.has(to?.kind ?? 'comment')
    );
  });
}

const arrowFromNotState: Rule = (bot) =>
  bot.schema.arrows
    .filter((a) => firesNever(bot, a) === 'not-state')
    .map((a) => ({
      severity: 'warning',
      target: arrow(a.id),
      message: `This arrow never fires: the client never stands in block #${a.from} (it does not move the client), so replies are not checked against its arrows. Make it a continue arrow (followed at once), start it from the block the client is in, or make #${a.from} a state block.`,
    }));

const replyArrowAfterContinue: Rule = (bot) =>
  bot.schema.arrows
    .filter((a) => firesNever(bot, a) === 'continued')
    .flatMap((a): Problem[] => {
      const away = continuedAway(bot, a.from);
      if (!away) return [];
      return [
        {
          severity: 'warning',
          target: arrow(a.id),
          message: `This arrow never fires: block #${a.from} continues at once into block #${away.to} (arrow #${away.id}), so the client is never in #${a.from} when a reply comes. Start this arrow from #${away.to}, or make arrow #${away.id} wait for a reply.`,
        },
      ];
    });

const arrowTouchesComment: Rule = (bot) =>
  bot.schema.arrows
    .filter((a) => firesNever(bot, a) === 'comment')
    .map((a) => ({
      severity: 'warning',
      target: arrow(a.id),
      message: `This arrow never fires: it starts or ends at a comment, which is a note and never runs. Delete the arrow or connect it to a block.`,
    }));

const extraUnconditionalArrow: Rule = (bot) =>
  [...bot.arrowsFrom.values()].flatMap((arrows) =>
    arrows
      // An input's exit arrow is followed only after wrong answers, never as the "any reply".
      .filter((a) => a.kind === 'unconditional' && !a.inputExit)
      .slice(1)
      .map((a) => ({
        severity: 'warning' as const,
        target: arrow(a.id),
        message: `This arrow never fires: block #${a.from} already has an "any reply" arrow with a lower id, and only the first one is followed. Delete one of them, or give this one a condition.`,
      })),
  );

/**
 * Several continue arrows out of one block all fire, at once and in id order (the engine's
 * continue step): the client gets every target's message and ends where the last one takes them,
 * which a designer drawing a second arrow rarely means.
 */
const severalContinueArrows: Rule = (bot) =>
  [...bot.arrowsFrom.values()].flatMap((arrows) => {
    const continues = arrows.filter((a) => a.kind === 'continue');
    if (continues.length < 2) return [];
    const last = continues[continues.length - 1];
    const named = continues.map((a) => `#${a.id} to block #${a.to}`).join(', ');
    return continues.slice(1).map((a) => ({
      severity: 'warning' as const,
      target: arrow(a.id),
      message: `Block #${a.from} has ${continues.length} continue arrows (${named}): all of them fire at once, in id order, so the client gets each block's message and ends in block #${last.to} (arrow #${last.id}). Keep one continue arrow, or make the others wait for a reply (a condition or "any reply").`,
    }));
  });

/** An input check where nothing can use it: on a block the client never waits in, or an exit arrow out of a block without one. */
const inputCheckUnused: Rule = (bot) => [
  ...bot.schema.blocks
    .filter((b) => b.input && NON_MOVING_KINDS.has(b.kind))
    .map((b) => ({
      severity: 'warning' as const,
      target: block(b.id),
      message: `Block #${b.id} has an input check, but the client never waits in a ${b.kind} block, so no reply is ever checked. Make it a state block, or remove the check.`,
    })),
  ...bot.schema.arrows
    .filter((a) => a.inputExit && !bot.schema.blocks.find((b) => b.id === a.from)?.input)
    .map((a) => ({
      severity: 'warning' as const,
      target: arrow(a.id),
      message: `Arrow #${a.id} is marked "Exit after wrong answers", but block #${a.from} has no input check, so it never fires. Give the block an input check, or untick it.`,
    })),
];

/** As the engine matches: a regex is the whole text, other modes match `;`-separated alternatives. */
function matchesSomething(condition: Arrow['condition']): boolean {
  const text = condition?.alternatives ?? '';
  return condition?.match === 'regex' ? Boolean(text.trim()) : text.split(';').some((a) => a.trim());
}

const emptyCondition: Rule = (bot) =>
  bot.schema.arrows
    .filter((a) => a.kind === 'condition' && !matchesSomething(a.condition))
    .map((a) => ({
      severity: 'warning',
      target: arrow(a.id),
      message: `This arrow never fires: its condition has no text to match. Type the replies it answers (separated by ;), or make it an "any reply" arrow.`,
    }));

/** A condition checked before another, by what it is on, and whether it can fail (a request could). */
interface Checked {
  target: { type: 'block' | 'arrow'; id: number };
  condition: Condition;
  sure: boolean;
}

/** For each arrow, start block and quick reply that never fires: what takes its messages first. */
interface Shadows {
  arrows: Map<number, Checked>;
  blocks: Map<number, Checked>;
}

const byId = (x: { id: number }, y: { id: number }) => x.id - y.id;

/** Blocks of a kind with a trigger to match, in the order the engine checks them (by id). */
const triggered = (bot: LintContext, kind: Block['kind']) =>
  bot.schema.blocks.filter((b) => b.kind === kind && b.trigger?.alternatives.trim()).sort(byId);

const checkedTrigger = (b: Block): Checked[] =>
  b.trigger ? [{ target: block(b.id), condition: b.trigger, sure: true }] : [];

/** The first of `earlier` that matches every message `condition` matches; a request may fail, so none with one. */
const takenBy = (earlier: readonly Checked[], condition: Condition) =>
  earlier.find((c) => c.sure && conditionCovers(c.condition, condition));

/**
 * bot-semantics §1: start triggers are checked first, on every message, then the current
 * block's condition arrows (by id), then its first "any reply" arrow, then quick replies.
 */
function shadowsOf(bot: LintContext): Shadows {
  if (bot.shadows) return bot.shadows;
  const shadows: Shadows = { arrows: new Map(), blocks: new Map() };
  const starts: Checked[] = [];
  for (const b of triggered(bot, 'start')) {
    const by = b.trigger && takenBy(starts, b.trigger);
    if (by) shadows.blocks.set(b.id, by);
    starts.push(...checkedTrigger(b));
  }
  const quick = [...starts];
  for (const b of triggered(bot, 'not_state_condition')) {
    const by = b.trigger && takenBy(quick, b.trigger);
    if (by) shadows.blocks.set(b.id, by);
    quick.push(...checkedTrigger(b));
  }
  for (const arrows of bot.arrowsFrom.values()) {
    const checked = [...starts];
    const live = arrows.filter((a) => waitsForReply(a) && !placedNever(bot, a) && !a.inputExit);
    for (const a of live) {
      if (a.kind !== 'condition' || !a.condition) continue;
      const by = takenBy(checked, a.condition);
      if (by) shadows.arrows.set(a.id, by);
      checked.push({ target: arrow(a.id), condition: a.condition, sure: !a.request });
    }
    const any = live.find((a) => a.kind === 'unconditional');
    const by = any && checked.find((c) => c.sure && matchesEverything(c.condition));
    if (any && by) shadows.arrows.set(any.id, by);
  }
  bot.shadows = shadows;
  return shadows;
}

/** What takes a condition's messages, as a problem says it. */
function takerText(bot: LintContext, by: Checked, later: Arrow | Block): string {
  const all = matchesEverything(by.condition) ? ' (its regex matches every message)' : '';
  const { type, id } = by.target;
  const what =
    type === 'arrow'
      ? `arrow #${id} out of the same block is checked before it`
      : bot.blocks.get(id)?.kind === 'start'
        ? `start block #${id}'s trigger is checked ${'from' in later ? 'first, on every message' : 'before it'}`
        : `quick reply #${id}'s trigger is checked before it`;
  return `${what} and matches every message this one does${all}`;
}

const shadowedCondition: Rule = (bot) => {
  const { arrows, blocks } = shadowsOf(bot);
  const onArrows = bot.schema.arrows.flatMap((a): Problem[] => {
    const by = arrows.get(a.id);
    if (!by) return [];
    return [
      {
        severity: 'warning',
        target: arrow(a.id),
        message: `This arrow never fires: ${takerText(bot, by, a)}, so block #${a.to} is never reached along it. Change one of the two conditions, or delete this arrow.`,
      },
    ];
  });
  const onBlocks = bot.schema.blocks.flatMap((b): Problem[] => {
    const by = blocks.get(b.id);
    if (!by) return [];
    const what = b.kind === 'start' ? 'start block' : 'quick reply';
    return [
      {
        severity: 'warning',
        target: block(b.id),
        message: `This ${what}'s trigger never selects it: ${takerText(bot, by, b)}. Change one of the two triggers, or delete this block.`,
      },
    ];
  });
  return [...onArrows, ...onBlocks];
};

/** The blocks a formula's message() sends clients to, computed once. */
function sentTo(bot: LintContext): Set<number> {
  bot.sentTo ??= blocksSentTo(bot);
  return bot.sentTo;
}

/**
 * Where the client stands while a block's message is shown, so where a press of its buttons is
 * routed from; null when that cannot be known (a quick reply, a block a formula or only the API
 * sends clients to, a timer that fires wherever the client is).
 */
function standingBlocks(bot: LintContext, blockId: number, seen = new Set<number>()): Set<number> | null {
  if (seen.has(blockId)) return new Set();
  seen.add(blockId);
  const b = bot.blocks.get(blockId);
  if (!b || !runs(b)) return null;
  if (!NON_MOVING_KINDS.has(b.kind)) {
    const away = continuedAway(bot, blockId);
    return away ? standingBlocks(bot, away.to, seen) : new Set([blockId]);
  }
  if (TRIGGER_KINDS.has(b.kind) || sentTo(bot).has(blockId)) return null;
  if (!bot.arrowsInto) {
    bot.arrowsInto = new Map();
    for (const a of bot.schema.arrows) bot.arrowsInto.set(a.to, [...(bot.arrowsInto.get(a.to) ?? []), a]);
  }
  const into = (bot.arrowsInto.get(blockId) ?? []).filter((a) => !firesNever(bot, a));
  if (!into.length) return null;
  const standing = new Set<number>();
  for (const a of into) {
    if (a.kind === 'timer' && !a.cancelIfLeft) return null;
    const from = bot.blocks.get(a.from);
    const moves = from && !NON_MOVING_KINDS.has(from.kind);
    // The client is in a block that moves it and stays there; out of a block that continues
    // at once, it is where the continue arrows take it.
    if (moves && continuedAway(bot, a.from)) return null;
    const there = moves ? new Set([a.from]) : standingBlocks(bot, a.from, seen);
    if (!there) return null;
    for (const id of there) standing.add(id);
  }
  return standing;
}

const answers = (condition: Condition | undefined, text: string) =>
  condition !== undefined && matchCondition(text, condition) !== null;

const buttonWithoutArrow: Rule = (bot) => {
  const triggers = [...triggered(bot, 'start'), ...triggered(bot, 'not_state_condition')];
  // Buttons repeat their texts across blocks: each is checked against the triggers once.
  const byTrigger = new Map<string, boolean>();
  const triggerAnswers = (text: string) =>
    cached(byTrigger, text, () => triggers.some((t) => answers(t.trigger, text)));
  return bot.schema.blocks.flatMap((b): Problem[] => {
    // A link button opens its page; a text with #{...} is known only when it is sent.
    const buttons = buttonList(b.buttons).filter(
      (x) => !x.url && !`${x.text}${x.callback_data ?? ''}`.includes('#{'),
    );
    if (!buttons.length || !runs(b)) return [];
    const standing = standingBlocks(bot, b.id);
    if (!standing?.size) return [];
    const arrows = [...standing].flatMap((id) =>
      (bot.arrowsFrom.get(id) ?? []).filter((a) => waitsForReply(a) && !firesNever(bot, a)),
    );
    const anyReply = arrows.filter((a) => a.kind === 'unconditional');
    // An "any reply" arrow that moves the client on or collects the reply answers a button as
    // meant (a suggested reply); one into a grey block that leaves the client where it was is
    // the "did not understand" answer.
    const fallback = anyReply.find(
      (a) => !a.collectInto && NON_MOVING_KINDS.has(bot.blocks.get(a.to)?.kind ?? 'comment'),
    );
    const answered = (text: string) =>
      triggerAnswers(text) ||
      arrows.some((a) => (a.kind === 'unconditional' && a !== fallback) || answers(a.condition, text));
    const whose =
      standing.size === 1 && standing.has(b.id)
        ? "this block's arrows"
        : `the arrows of block ${[...standing].map((id) => `#${id}`).join(', ')} (where the client is when this message is sent)`;
    const outcome = fallback
      ? `only gets the "any reply" answer (arrow #${fallback.id} into grey block #${fallback.to}, the client staying where it was)`
      : 'gets no answer';
    return buttons
      .filter((x) => ![x.text, x.callback_data].some((text) => text && answered(text)))
      .map((x) => ({
        severity: 'warning',
        target: block(b.id),
        message: `Pressing the button "${x.text}" ${outcome}: no condition of ${whose}, no start trigger and no quick reply matches it. Draw an arrow from the button (a condition with its text), or remove the button.`,
      }));
  });
};

/** A trigger (start or quick reply) that takes every message: nothing goes unanswered then. */
const catchesEverything = (b: Block) =>
  TRIGGER_KINDS.has(b.kind) && b.trigger !== undefined && matchesEverything(b.trigger);

const unexpectedTextUnanswered: Rule = (bot) => {
  if (bot.schema.blocks.some(catchesEverything)) return [];
  return bot.schema.blocks.flatMap((b): Problem[] => {
    if (!runs(b) || NON_MOVING_KINDS.has(b.kind)) return [];
    const replies = (bot.arrowsFrom.get(b.id) ?? []).filter((a) => waitsForReply(a) && !placedNever(bot, a));
    const takesAll = (a: Arrow) =>
      a.kind === 'unconditional' ||
      (!a.request && a.condition !== undefined && matchesEverything(a.condition));
    if (!replies.some((a) => a.kind === 'condition') || replies.some(takesAll)) return [];
    return [
      {
        severity: 'warning',
        target: block(b.id),
        message: `A reply none of this block's conditions match gets no answer: every arrow out of it has a condition, and no quick reply takes every message. Add an "any reply" arrow from it to a grey not_state block ("Sorry, I didn't understand…", with the buttons repeated): it answers, and the client stays here.`,
      },
    ];
  });
};

const showAsButtonWithoutCondition: Rule = (bot) =>
  bot.schema.arrows
    .filter((a) => a.showAsButton && a.kind !== 'condition')
    .map((a) => ({
      severity: 'warning',
      target: arrow(a.id),
      message: `This arrow is set to show as a button, but only a condition arrow has a text to show: no button appears. Make it a condition arrow or turn "show as a button" off.`,
    }));

/** Data collection on an arrow that is followed without a reply: nothing to collect. */
const collectWithoutReply =
  (kind: 'timer' | 'continue', what: string): Rule =>
  (bot) =>
    bot.schema.arrows
      .filter((a) => a.kind === kind && a.collectInto)
      .map((a) => ({
        severity: 'warning',
        target: arrow(a.id),
        message: `This arrow is ${what} but collects into "${a.collectInto}": it is followed without a reply, so nothing is collected. Collect on the arrow that answers the client's reply instead.`,
      }));

const quickReplyWithoutTrigger: Rule = (bot) =>
  bot.schema.blocks
    .filter((b) => b.kind === 'not_state_condition' && !b.trigger?.alternatives.trim())
    .map((b) => ({
      severity: 'warning',
      target: block(b.id),
      message: `This quick reply has no trigger, so no message ever selects it. Type the messages it answers in its trigger.`,
    }));

const noEntryBlock: Rule = (bot) => {
  const running = bot.schema.blocks.filter((b) => runs(b));
  if (!running.length || running.some((b) => b.kind === 'start' && !b.trigger?.alternatives.trim()))
    return [];
  return [
    {
      severity: 'warning',
      target: { type: 'bot' },
      message:
        'No start block with an empty trigger: a new client whose first message matches no trigger gets no reply. Add a start block and leave its trigger empty.',
    },
  ];
};

const isEntry = (b: Block) => b.kind === 'start' && !b.trigger?.alternatives.trim();

/** Start blocks with an empty trigger after the lowest-id one: only that one greets new clients. */
function extraEntries(bot: LintContext): Block[] {
  const entries = bot.schema.blocks.filter(isEntry).sort((a, b) => a.id - b.id);
  return entries.slice(1);
}

const extraEntryBlock: Rule = (bot) => {
  const extra = extraEntries(bot);
  const first = Math.min(...bot.schema.blocks.filter(isEntry).map((b) => b.id));
  return extra.map((b) => ({
    severity: 'warning',
    target: block(b.id),
    message: `This start block has an empty trigger, like start block #${first}: new clients go to the lowest id only and no message matches an empty trigger, so clients come here only by an arrow. Give it a trigger, or make it a state block.`,
  }));
};

const tooManyTriggerBlocks: Rule = (bot) => {
  const count = bot.schema.blocks.filter((b) => TRIGGER_KINDS.has(b.kind)).length;
  if (count <= LIMITS.triggerBlocks) return [];
  return [
    {
      severity: 'error',
      target: { type: 'bot' },
      message: `${count} start and quick-reply blocks: at most ${LIMITS.triggerBlocks} are allowed, so this bot cannot be saved. Merge triggers (alternatives separated by ;) or use state blocks with arrows.`,
    },
  ];
};

// Formula calls that move a client into a block given by id (their message_id argument).
const MOVING_CALLS: Record<string, number> = { message: 2, chatapp_message: 2, platform_message: 3 };

function walk(e: Expr, visit: (e: Expr) => void) {
  visit(e);
  for (const child of children(e)) walk(child, visit);
}

/** Blocks a formula sends clients to by a literal id: `message(client_id, '', 12)`. */
function blocksSentTo(bot: LintContext): Set<number> {
  const ids = new Set<number>();
  for (const b of bot.schema.blocks) {
    for (const statement of formulaOf(b.formula).statements) {
      const parts = statement.type === 'expr' ? [statement.expr] : statement.value ? [statement.value] : [];
      for (const part of parts)
        walk(part, (e) => {
          const at = e.type === 'call' ? MOVING_CALLS[e.name] : undefined;
          const id = at !== undefined && e.type === 'call' ? e.args[at] : undefined;
          if (id?.type === 'number') ids.add(id.value);
        });
    }
  }
  return ids;
}

const unreachableBlock: Rule = (bot) => {
  const reached = new Set<number>();
  const extra = new Set(extraEntries(bot));
  const queue = bot.schema.blocks.filter((b) => TRIGGER_KINDS.has(b.kind) && !extra.has(b)).map((b) => b.id);
  for (const id of sentTo(bot)) if (bot.blocks.has(id)) queue.push(id);
  while (queue.length) {
    const id = queue.pop() as number;
    if (reached.has(id)) continue;
    reached.add(id);
    for (const a of bot.arrowsFrom.get(id) ?? []) if (!firesNever(bot, a)) queue.push(a.to);
  }
  return bot.schema.blocks
    .filter((b) => runs(b) && !TRIGGER_KINDS.has(b.kind) && !reached.has(b.id))
    .map((b) => ({
      severity: 'warning',
      target: block(b.id),
      message: `No trigger or arrow that can fire leads to this block, so clients reach it only if the API or a callback sends them there. Connect an arrow to it from a block clients reach, or delete it.`,
    }));
};

// Parsed once per text: lint runs on every committed edit of a big bot, where few texts change.
const formulaCache = new Map<string, ReturnType<typeof parseFormula>>();
const templateCache = new Map<string, string[]>();
function cached<T>(cache: Map<string, T>, key: string, compute: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size > 20_000) cache.clear();
    value = compute();
    cache.set(key, value);
  }
  return value;
}

const NO_STATEMENTS: ReturnType<typeof parseFormula> = { statements: [], errors: [], tokens: [] };
const formulaOf = (source: string) =>
  source.trim() ? cached(formulaCache, source, () => parseFormula(source)) : NO_STATEMENTS;

/** The variable names a template's `#{...}` read, expressions included. */
const templateNames = (text: string): string[] =>
  text.includes('#{')
    ? cached(templateCache, text, () => {
        const names = new Set<string>();
        for (const p of findPlaceholders(text)) {
          if (p.kind === 'variable' && p.name) names.add(p.name);
          else if (p.kind === 'expression' && p.expression)
            namesRead(parseExpression(p.expression).expr, names);
        }
        return [...names];
      })
    : [];

function namesRead(e: Expr | null, into: Set<string>) {
  if (e) walk(e, (x) => x.type === 'name' && into.add(x.name));
}

/** Scopes the schema cannot see being set: the API, callbacks and project settings set them. */
/** Set outside the bot: the client's profile, the project's constants and its secrets (Settings). */
/**
 * Names the API, a callback or the project set, which lint cannot see, except `client.name`:
 * nothing sets that profile variable but the bot itself, and newcomers take it for the client's
 * name, which is `name` (the simulator's test client has one, `client.name` stays empty).
 */
const setOutside = (name: string) =>
  name !== 'client.name' &&
  (name.startsWith('client.') || name.startsWith('project.') || name.startsWith('secret.'));

/** What a rule says of `client.name` read but never set. */
const CLIENT_NAME_HINT =
  'client.name is a profile variable that nothing in this bot sets, so it is empty; the client’s name from the messenger is #{name}.';

const storedCache = new Map<string, string[]>();
const storedTargets = (request: BlockRequest | undefined): string[] =>
  request?.storedValues.trim()
    ? cached(storedCache, request.storedValues, () =>
        parseStoredValues(request.storedValues)
          .phrases.map((p) => p.variable)
          .filter(isVariableName),
      )
    : [];

/**
 * What the schema sets: formula assignments, data collection, stored values. As
 * lib/formula's knownVariables, but on the cached parses: this runs on every edit of a big bot.
 */
function variablesSet(bot: LintContext): Set<string> {
  const names = new Set<string>();
  for (const b of bot.schema.blocks) {
    for (const s of formulaOf(b.formula).statements) {
      let target = s.type === 'assign' ? s.target : null;
      while (target?.type === 'index') target = target.target;
      if (target?.type === 'name') names.add(target.name);
    }
    for (const name of storedTargets(b.request)) names.add(name);
    if (b.ai?.saveInto) names.add(b.ai.saveInto);
    for (const field of b.ai?.fields ?? []) names.add(field.variable);
  }
  for (const a of bot.schema.arrows) {
    if (a.collectInto) names.add(a.collectInto);
    for (const name of storedTargets(a.request)) names.add(name);
  }
  return names;
}

/** The names a variable rule reports, each with the first block or arrow that reads it. */
function unsetNames(bot: LintContext, reads: (visit: (name: string, at: LintTarget) => void) => void) {
  bot.known ??= variablesSet(bot);
  const known = bot.known;
  const found = new Map<string, LintTarget>();
  reads((name, at) => {
    if (!known.has(name) && !isSystemVariable(name) && !setOutside(name) && !found.has(name))
      found.set(name, at);
  });
  return found;
}

const readsCache = new Map<string, string[]>();
/** The variables a formula reads (an assignment's index too: `a[i] = 1` reads i). */
const formulaReads = (source: string): string[] =>
  source.trim()
    ? cached(readsCache, source, () => {
        const names = new Set<string>();
        for (const s of formulaOf(source).statements) {
          if (s.type === 'expr') namesRead(s.expr, names);
          else {
            namesRead(s.value, names);
            if (s.target.type === 'index') namesRead(s.target.index, names);
          }
        }
        return [...names];
      })
    : [];

const expressionCache = new Map<string, string[]>();
const expressionReads = (source: string | undefined): string[] =>
  source?.trim()
    ? cached(expressionCache, source, () => {
        const names = new Set<string>();
        namesRead(parseExpression(source).expr, names);
        return [...names];
      })
    : [];

const variableNeverSet: Rule = (bot) => {
  const found = unsetNames(bot, (visit) => {
    for (const b of bot.schema.blocks) {
      for (const name of formulaReads(b.formula)) visit(name, block(b.id));
      for (const name of expressionReads(b.trigger?.expression)) visit(name, block(b.id));
    }
    for (const a of bot.schema.arrows)
      for (const name of expressionReads(a.condition?.expression)) visit(name, arrow(a.id));
  });
  return [...found].map(([name, target]) => ({
    severity: 'info',
    target,
    message:
      name === 'client.name'
        ? `The formula reads client.name: ${CLIENT_NAME_HINT.replace('#{name}', 'name')}`
        : `The formula reads "${name}", but no formula, arrow or request of this bot sets it, so it is empty unless the API or a callback sets it. Check the spelling, or set it first.`,
  }));
};

function requestTexts(request: BlockRequest | undefined): string[] {
  return request ? [request.url, request.headers, request.params, request.storedValues] : [];
}

const placeholderNeverSet: Rule = (bot) => {
  const found = unsetNames(bot, (visit) => {
    const texts = (list: string[], at: LintTarget) => {
      for (const text of list) for (const name of templateNames(text)) visit(name, at);
    };
    for (const b of bot.schema.blocks) {
      const hint = b.buttons && !Array.isArray(b.buttons) ? [b.buttons.hint] : [];
      texts(
        [b.text, ...hint, ...buttonList(b.buttons).map((x) => x.text), ...requestTexts(b.request)],
        block(b.id),
      );
    }
    for (const a of bot.schema.arrows) {
      const at = a.timer && 'at' in a.timer ? [a.timer.at] : [];
      texts([...at, ...requestTexts(a.request)], arrow(a.id));
    }
  });
  return [...found].map(([name, target]) => ({
    severity: 'info',
    target,
    message:
      name === 'client.name'
        ? `#{client.name}: ${CLIENT_NAME_HINT}`
        : `#{${name}} is never set by a formula, arrow or stored value of this bot, so it shows as empty unless the API or a callback sets it. Check the spelling, or set it before this ${target.type === 'arrow' ? 'arrow' : 'block'}.`,
  }));
};

const callsCache = new Map<string, string[]>();
/** The built-ins a formula (or, `expression`, a comparison expression) calls, by name. */
const callsOf = (source: string | undefined, expression = false): string[] =>
  source?.trim()
    ? cached(callsCache, `${expression ? 'e' : 'f'}${source}`, () => {
        const names = new Set<string>();
        const parts = expression
          ? [parseExpression(source).expr]
          : formulaOf(source).statements.flatMap((st) =>
              st.type === 'expr' ? [st.expr] : [st.target, st.value],
            );
        for (const part of parts) if (part) walk(part, (e) => e.type === 'call' && names.add(e.name));
        return [...names];
      })
    : [];

const functionNeedsPlan: Rule = (bot, options) => {
  const plan = options.plan;
  if (!plan) return [];
  const refused = (names: string[], target: LintTarget): Problem[] =>
    names.flatMap((name) => {
      const entry = builtins.get(name);
      if (!entry || planAllows(entry, plan)) return [];
      const withheld = name === 'ask_operator' ? ", and the block's message is not sent" : '';
      return [
        {
          severity: 'warning',
          target,
          message: `${planMessage(name, plan)}: the call fails when it runs${withheld}.`,
        },
      ];
    });
  return [
    ...bot.schema.blocks.flatMap((b) =>
      refused([...new Set([...callsOf(b.formula), ...callsOf(b.trigger?.expression, true)])], block(b.id)),
    ),
    ...bot.schema.arrows.flatMap((a) => refused(callsOf(a.condition?.expression, true), arrow(a.id))),
  ];
};

/** A block's AI step or arrow choice on a project without the AI plan never answers. */
const aiNeedsPlan: Rule = (bot, options) =>
  options.plan && options.plan !== 'ai'
    ? bot.schema.blocks
        .filter((b) => b.ai)
        .map((b) => ({
          severity: 'warning' as const,
          target: block(b.id),
          message: `AI features need the AI plan; this project is on the ${options.plan} plan (change it in Settings, General): the block's AI ${b.ai?.prompt.trim() ? 'step' : 'choice of arrow'} never answers${b.ai?.fallbackBlockId ? ', the client goes to its fallback block' : ''}.`,
        }))
    : [];

/** A fallback block that is not in the bot: a failed AI call would leave the client where it is. */
const aiFallbackMissing: Rule = (bot) =>
  bot.schema.blocks.flatMap((b): Problem[] =>
    b.ai?.fallbackBlockId && !bot.blocks.has(b.ai.fallbackBlockId)
      ? [
          {
            severity: 'error',
            target: block(b.id),
            message: `The AI fallback block #${b.ai.fallbackBlockId} does not exist: pick a block of this bot, or clear the field.`,
          },
        ]
      : [],
  );

/** The attachment kinds of a block as the descriptors' media name them (a link is text: always shown). */
const MEDIA_KINDS = ['image', 'video', 'audio', 'document'] as const;
const mediaOf = (type: string) => (type === 'file' ? 'document' : type === 'link' ? null : type);

const messengerCannotShow: Rule = (bot, options) =>
  (options.messengers ?? []).flatMap((messenger) =>
    bot.schema.blocks.flatMap((b): Problem[] => [
      ...mediaNotShown(messenger, b),
      ...buttonsNotShown(messenger, b, bot.arrowsFrom.get(b.id) ?? []),
    ]),
  );

/** Attachments a messenger cannot show (a voice call speaks the text only). */
function mediaNotShown(messenger: MessengerCapabilities, b: Block): Problem[] {
  if (!messenger.media || !runs(b)) return [];
  const shown = messenger.media;
  const missing = [
    ...new Set((b.attachments ?? []).flatMap((a) => mediaOf(a.type) ?? []).filter((m) => !shown.includes(m))),
  ];
  if (!missing.length) return [];
  return [
    {
      severity: 'warning',
      target: block(b.id),
      message: `${messenger.name} cannot show this block's ${missing.join(', ')} attachments: its clients get the text only${shown.length ? '' : ' (a voice call speaks it: say in words what the attachment shows)'}.`,
    },
  ];
}

/** Buttons a messenger cannot show: none at all, too many, or titles too long. */
function buttonsNotShown(messenger: MessengerCapabilities, b: Block, arrows: readonly Arrow[]): Problem[] {
  const count =
    buttonList(b.buttons).length + arrows.filter((a) => a.showAsButton && a.kind === 'condition').length;
  if (!count || !runs(b)) return [];
  if (!messenger.buttons && Array.isArray(b.buttons ?? []))
    return [
      {
        severity: 'warning',
        target: block(b.id),
        message: `${messenger.name} shows no buttons, so this block's buttons do not reach its clients. Use the hint variant (a hint with numbered options) or say the options in the text.`,
      },
    ];
  if (messenger.maxButtons !== undefined && count > messenger.maxButtons)
    return [
      {
        severity: 'warning',
        target: block(b.id),
        message: `This block has ${count} buttons; ${messenger.name} shows at most ${messenger.maxButtons} in one message. Split them over several blocks.`,
      },
    ];
  const long = messenger.buttonTitleLength
    ? buttonList(b.buttons).find((x) => !x.url && x.text.trim().length > (messenger.buttonTitleLength ?? 0))
    : undefined;
  if (long && Array.isArray(b.buttons))
    return [
      {
        severity: 'warning',
        target: block(b.id),
        message: `The button “${long.text.trim()}” is over ${messenger.buttonTitleLength} characters: ${messenger.name} shows such buttons as numbered text, and its clients answer with a number the arrows do not expect. Shorten it.`,
      },
    ];
  return [];
}

/** A block action moving the deal to a CRM stage that no longer exists (the engine logs an error and skips it). */
const unknownCrmStage: Rule = (bot, options) => {
  if (!options.crmStateIds) return [];
  const known = new Set(options.crmStateIds);
  return bot.schema.blocks.flatMap((b): Problem[] => {
    const id = b.actions?.crmStateId;
    if (!id || known.has(id)) return [];
    return [
      {
        severity: 'warning',
        target: block(b.id),
        message: `This block moves the deal to CRM stage ${id}, which no longer exists (deleted, or from another project): the move is skipped. Choose a stage in the block's actions.`,
      },
    ];
  });
};

/** A block's actions name a list the project no longer has (deleted, or from another project). */
const unknownList: Rule = (bot, options) => {
  if (!options.listIds) return [];
  const known = new Set(options.listIds);
  return bot.schema.blocks.flatMap((b): Problem[] => {
    const missing = [
      ...new Set([...(b.actions?.addToLists ?? []), ...(b.actions?.removeFromLists ?? [])]),
    ].filter((id) => !known.has(id));
    if (!missing.length) return [];
    return [
      {
        severity: 'warning',
        target: block(b.id),
        message: `This block's actions use list${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, which ${missing.length > 1 ? 'no longer exist' : 'no longer exists'} in this project, so nothing is added or removed. Choose a list in the block's Actions, or create one on the Lists page.`,
      },
    ];
  });
};

/** Every rule, by its stable id (the docs list them in this order). */
export const LINT_RULES: Readonly<Record<string, Rule>> = {
  'too-many-trigger-blocks': tooManyTriggerBlocks,
  'no-entry-block': noEntryBlock,
  'extra-entry-block': extraEntryBlock,
  'arrow-from-not-state': arrowFromNotState,
  'reply-arrow-after-continue': replyArrowAfterContinue,
  'arrow-touches-comment': arrowTouchesComment,
  'extra-unconditional-arrow': extraUnconditionalArrow,
  'several-continue-arrows': severalContinueArrows,
  'input-check-unused': inputCheckUnused,
  'empty-condition': emptyCondition,
  'shadowed-condition': shadowedCondition,
  'show-as-button-without-condition': showAsButtonWithoutCondition,
  'button-without-arrow': buttonWithoutArrow,
  'unexpected-text-unanswered': unexpectedTextUnanswered,
  'collect-on-timer': collectWithoutReply('timer', 'a timer'),
  'collect-on-continue': collectWithoutReply('continue', 'a continue arrow'),
  'quick-reply-without-trigger': quickReplyWithoutTrigger,
  'unreachable-block': unreachableBlock,
  'variable-never-set': variableNeverSet,
  'placeholder-never-set': placeholderNeverSet,
  'function-needs-plan': functionNeedsPlan,
  'ai-needs-plan': aiNeedsPlan,
  'ai-fallback-missing': aiFallbackMissing,
  'messenger-cannot-show': messengerCannotShow,
  'unknown-list': unknownList,
  'unknown-crm-stage': unknownCrmStage,
};

/** The problems of a schema, errors first, then in rule order. */
export function lintBot(
  schema: Pick<BotSchema, 'blocks' | 'arrows'>,
  options: LintOptions = {},
): LintProblem[] {
  const arrowsFrom = new Map<number, Arrow[]>();
  for (const a of [...schema.arrows].sort((x, y) => x.id - y.id)) {
    const list = arrowsFrom.get(a.from);
    if (list) list.push(a);
    else arrowsFrom.set(a.from, [a]);
  }
  const bot: LintContext = { schema, blocks: new Map(schema.blocks.map((b) => [b.id, b])), arrowsFrom };
  const rank = { error: 0, warning: 1, info: 2 };
  return Object.entries(LINT_RULES)
    .flatMap(([rule, check]) => check(bot, options).map((p) => ({ rule, ...p })))
    .sort((a, b) => rank[a.severity] - rank[b.severity]);
}

/** `block #3`, `arrow #7` or `bot`: where a problem is, as the CLI and the problems list say it. */
export function describeLintTarget(target: LintTarget): string {
  return target.type === 'bot' ? 'bot' : `${target.type} #${target.id}`;
}

/** One line per problem: `warning arrow #7 (arrow-from-not-state): This arrow never fires: …`. */
export function formatLintProblems(problems: readonly LintProblem[]): string {
  return problems
    .map((p) => `${p.severity} ${describeLintTarget(p.target)} (${p.rule}): ${p.message}\n`)
    .join('');
}
