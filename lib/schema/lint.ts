import { children, type Expr, parseExpression, parseFormula } from '@/lib/formula/parser';
import { isSystemVariable } from '@/lib/formula/system-variables';
import { findPlaceholders, isVariableName, parseStoredValues } from '@/lib/template';
import {
  type Arrow,
  type Block,
  type BlockRequest,
  type BotSchema,
  type Buttons,
  LIMITS,
  NON_MOVING_KINDS,
  TRIGGER_KINDS,
} from './bot-schema';

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
}

/** tg: a keyboard holds at most 100 buttons; long texts are split (lib/tg/render.ts). */
export const TG_CAPABILITIES: MessengerCapabilities = { name: 'tg', buttons: true, maxButtons: 100 };

/** What each kind of connected channel can show; kinds not listed show everything. */
const CHANNEL_CAPABILITIES: Readonly<Record<string, MessengerCapabilities>> = { tg: TG_CAPABILITIES };

/** The messengers a project's connected channels (by kind) bring to the `messenger-cannot-show` rule. */
export function messengersOf(channelKinds: readonly string[]): MessengerCapabilities[] {
  return [...new Set(channelKinds)].flatMap((kind) => CHANNEL_CAPABILITIES[kind] ?? []);
}

export interface LintOptions {
  /** The messengers the bot's clients use (its connected channels); none: that rule is skipped. */
  messengers?: readonly MessengerCapabilities[];
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
}

const block = (id: number): LintTarget => ({ type: 'block', id });
const arrow = (id: number): LintTarget => ({ type: 'arrow', id });
const runs = (b: Block | undefined) => b !== undefined && b.kind !== 'comment';
/** Arrows checked against the client's reply (the engine routes only out of the client's current block). */
const waitsForReply = (a: Arrow) => a.kind === 'condition' || a.kind === 'unconditional';

/** Whether an arrow can ever fire, the reason it cannot otherwise (for the rules and reachability). */
function firesNever(bot: LintContext, a: Arrow): 'comment' | 'not-state' | 'continued' | null {
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
      .filter((a) => a.kind === 'unconditional')
      .slice(1)
      .map((a) => ({
        severity: 'warning' as const,
        target: arrow(a.id),
        message: `This arrow never fires: block #${a.from} already has an "any reply" arrow with a lower id, and only the first one is followed. Delete one of them, or give this one a condition.`,
      })),
  );

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
  for (const id of blocksSentTo(bot)) if (bot.blocks.has(id)) queue.push(id);
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
const setOutside = (name: string) => name.startsWith('client.') || name.startsWith('project.');

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
    message: `The formula reads "${name}", but no formula, arrow or request of this bot sets it, so it is empty unless the API or a callback sets it. Check the spelling, or set it first.`,
  }));
};

function requestTexts(request: BlockRequest | undefined): string[] {
  return request ? [request.url, request.headers, request.params, request.storedValues] : [];
}

function buttonList(buttons: Buttons | undefined) {
  if (!buttons) return [];
  return Array.isArray(buttons) ? buttons : buttons.buttons;
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
    message: `#{${name}} is never set by a formula, arrow or stored value of this bot, so it shows as empty unless the API or a callback sets it. Check the spelling, or set it before this ${target.type === 'arrow' ? 'arrow' : 'block'}.`,
  }));
};

const messengerCannotShow: Rule = (bot, options) =>
  (options.messengers ?? []).flatMap((messenger) =>
    bot.schema.blocks.flatMap((b): Problem[] => {
      const count =
        buttonList(b.buttons).length +
        (bot.arrowsFrom.get(b.id) ?? []).filter((a) => a.showAsButton && a.kind === 'condition').length;
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
      return [];
    }),
  );

/** Every rule, by its stable id (the docs list them in this order). */
export const LINT_RULES: Readonly<Record<string, Rule>> = {
  'too-many-trigger-blocks': tooManyTriggerBlocks,
  'no-entry-block': noEntryBlock,
  'extra-entry-block': extraEntryBlock,
  'arrow-from-not-state': arrowFromNotState,
  'reply-arrow-after-continue': replyArrowAfterContinue,
  'arrow-touches-comment': arrowTouchesComment,
  'extra-unconditional-arrow': extraUnconditionalArrow,
  'empty-condition': emptyCondition,
  'show-as-button-without-condition': showAsButtonWithoutCondition,
  'collect-on-timer': collectWithoutReply('timer', 'a timer'),
  'collect-on-continue': collectWithoutReply('continue', 'a continue arrow'),
  'quick-reply-without-trigger': quickReplyWithoutTrigger,
  'unreachable-block': unreachableBlock,
  'variable-never-set': variableNeverSet,
  'placeholder-never-set': placeholderNeverSet,
  'messenger-cannot-show': messengerCannotShow,
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
