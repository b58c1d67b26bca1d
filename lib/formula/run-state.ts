import type { BuiltinContext, Plan } from './catalogue';
import { LIMITS } from './limits';
import type { Meter } from './meter';
import { isSystemVariable } from './system-variables';
import {
  asExactNumber,
  asNumber,
  deserializeValue,
  FormulaError,
  serializeValue,
  type Value,
} from './values';

/** Variables as the engine stores them: text, with `client.` and `project.` prefixes kept. */
export interface VariableStore {
  get(name: string): string | undefined;
  set(name: string, value: string | null): void;
  /**
   * Optional change signal: a new object whenever what get() returns may have changed (every
   * set, and any other change). A compiled formula then reads a variable again only after the
   * version changed; a store without one is read on every run. Compared by identity, so no two
   * stores ever share a version. System variables, which the host computes for the moment, are
   * read every run regardless.
   */
  readonly version?: object;
}

/** The in-flow functions with I/O, provided by the server. */
export interface FormulaHost {
  call(name: string, args: Value[]): Promise<Value>;
}

export type { Plan };

export interface RunOptions {
  store: VariableStore;
  host?: FormulaHost;
  plan: Plan;
  now?: () => Date;
  random?: () => number;
  timeZone?: string;
}

/**
 * Steps between two looks at the clock. Without in-flow calls nothing is evaluated twice, so a
 * formula of fewer nodes than this can neither look at the clock nor near the step limit, and
 * runs without counting steps at all.
 */
export const CLOCK_EVERY = 1024;

const UNREAD = Symbol('unread');

/**
 * A name one compiled formula reads or writes, with the stored text it converted last (and the
 * store's version then, if the store has one), and where a run remembers its value (-1: read
 * once, nothing to remember).
 */
export class NameSlot {
  raw: string | undefined | typeof UNREAD = UNREAD;
  value: Value = null;
  /** The number value stands for in arithmetic (a number or numeric text), else NaN. */
  number = Number.NaN;
  /** number, where value compares as it (see asExactNumber), else NaN. */
  exact = Number.NaN;
  version: object | null = null;
  readonly system: boolean;

  constructor(
    readonly name: string,
    readonly index: number,
  ) {
    this.system = isSystemVariable(name);
  }
}

/** The names of one compiled formula or expression, each read from the store once per run. */
export class NameTable {
  private readonly slots = new Map<string, NameSlot>();
  private remembered = 0;

  /**
   * @param keepContainers lists and dicts read from the store may be reused by later runs: only
   *   where nothing can change them (expressions without in-flow calls; results are copied out).
   * @param readOnce names read at most once in a run, so not worth remembering for the run
   *   (those an expression without in-flow calls, which replay, names once).
   */
  constructor(
    readonly keepContainers: boolean,
    private readonly readOnce: ReadonlySet<string> = new Set(),
  ) {}

  slot(name: string): NameSlot {
    let slot = this.slots.get(name);
    if (!slot) {
      slot = new NameSlot(name, this.readOnce.has(name) ? -1 : this.remembered++);
      this.slots.set(name, slot);
    }
    return slot;
  }

  /** How many names a run remembers. */
  get size(): number {
    return this.remembered;
  }
}

const NO_RESULTS: readonly Value[] = [];

/** State of one run, and the built-ins' view of it. Host calls are replayed: see host-calls.ts. */
export class Run implements BuiltinContext, Meter {
  /** This run's value of each name, by slot: undefined until read or written. */
  readonly values: (Value | undefined)[];
  steps = 0;
  /** 0 in a run that does not count steps (see CLOCK_EVERY): its work() then counts no time. */
  deadline = 0;
  /** Bytes of values built (see LIMITS.memoryBytes). */
  bytes = 0;
  hostResults: readonly Value[] = NO_RESULTS;
  hostIndex = 0;
  hostCalls = 0;
  /** Random numbers drawn by a statement with in-flow calls, replayed with it; null elsewhere. */
  randoms: number[] | null = null;
  randomIndex = 0;

  constructor(
    public options: RunOptions,
    readonly names: NameTable,
    counted: boolean,
  ) {
    this.values = new Array(names.size);
    if (counted) this.deadline = Date.now() + LIMITS.wallTimeMs;
  }

  get timeZone(): string {
    return this.options.timeZone ?? 'UTC';
  }

  now(): Date {
    const now = this.options.now;
    return now ? now() : new Date();
  }

  work(steps: number): void {
    const before = this.steps;
    // Whole steps, so that tick() still meets every multiple of CLOCK_EVERY it passes.
    const after = before + Math.ceil(steps);
    this.steps = after;
    if (after > LIMITS.steps) throw tooManySteps();
    // The clock is looked at whenever a multiple of CLOCK_EVERY is passed, as tick() does.
    if (this.deadline !== 0 && Math.floor(after / CLOCK_EVERY) !== Math.floor(before / CLOCK_EVERY))
      checkClock(this);
  }

  alloc(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > LIMITS.memoryBytes)
      throw new RunLimitError(
        `the formula built more than ${LIMITS.memoryBytes / (1024 * 1024)} MB of values`,
      );
  }

  random(): number {
    const draw = this.options.random ?? Math.random;
    if (this.randoms === null) return draw();
    // A replayed statement sees the same numbers as its first attempt.
    if (this.randomIndex < this.randoms.length) return this.randoms[this.randomIndex++];
    const r = draw();
    this.randoms.push(r);
    this.randomIndex++;
    return r;
  }
}

const FINISHED: RunOptions = {
  store: { get: () => undefined, set: () => {} },
  plan: 'free',
};

/**
 * One Run, reused by the runs of a compiled formula that calls no in-flow function (so each
 * run is over before the next starts): allocating a run's state costs more than evaluating many
 * a formula. A run that starts while another is still going (a store that evaluates the same
 * formula) gets its own.
 */
export class ReusedRun {
  private free: Run | null;

  constructor(
    private readonly names: NameTable,
    private readonly counted: boolean,
  ) {
    this.free = new Run(FINISHED, names, counted);
  }

  use<T>(options: RunOptions, body: (run: Run) => T): T {
    const run = this.free;
    // Rare paths in calls of their own: V8 inlines only so much bytecode into one function,
    // the formula's closures included, and this is the common case of every run.
    if (run === null) return this.another(options, body);
    this.free = null;
    run.options = options;
    // Steps and bytes count in every run: work that grows with values is charged even here.
    run.steps = 0;
    run.bytes = 0;
    if (this.counted) startClock(run);
    try {
      return body(run);
    } finally {
      this.release(run);
    }
  }

  private another<T>(options: RunOptions, body: (run: Run) => T): T {
    return body(new Run(options, this.names, this.counted));
  }

  private release(run: Run): void {
    if (run.values.length !== 0) forget(run.values);
    // Nothing of the caller's is kept.
    run.options = FINISHED;
    this.free = run;
  }
}

function forget(values: (Value | undefined)[]): void {
  // (A loop: fill() costs more than the rest of a short run.)
  for (let i = 0; i < values.length; i++) values[i] = undefined;
}

/** A limit of the whole run (steps, time): no later line could finish either, so the run stops. */
export class RunLimitError extends FormulaError {}

const tooManySteps = () => new RunLimitError(`the formula took more than ${LIMITS.steps} steps`);

function startClock(run: Run): void {
  run.deadline = Date.now() + LIMITS.wallTimeMs;
}

function checkClock(run: Run): void {
  if (Date.now() > run.deadline)
    throw new RunLimitError(`the formula ran longer than ${LIMITS.wallTimeMs} ms`);
}

/** One step of a counted run: past the limits, a clear error. */
export function tick(run: Run): void {
  if (++run.steps > LIMITS.steps) throw tooManySteps();
  if (run.steps % CLOCK_EVERY === 0) checkClock(run);
}

const isContainer = (v: Value) => Array.isArray(v) || v instanceof Map;

/** A name's value: this run's if known, else the store's, converted once per stored text. */
export function readName(run: Run, slot: NameSlot): Value {
  const index = slot.index;
  if (index >= 0) {
    const known = run.values[index];
    if (known !== undefined) return known;
  }
  // Taken before get(), which may itself change the store.
  const version = run.options.store.version;
  const value =
    version !== undefined && version === slot.version ? slot.value : readStored(run, slot, version);
  if (index >= 0) run.values[index] = value;
  return value;
}

/** readName's read from the store (apart, so the common case above stays small enough to inline). */
function readStored(run: Run, slot: NameSlot, version: object | undefined): Value {
  const raw = run.options.store.get(slot.name);
  let value: Value;
  if (raw === slot.raw) value = slot.value;
  else {
    value = raw === undefined ? null : deserializeValue(raw);
    // A list or dict a formula may change in place is converted afresh each run.
    const keep = run.names.keepContainers || !isContainer(value);
    slot.raw = keep ? raw : UNREAD;
    slot.value = keep ? value : null;
    slot.number = keep ? numberOf(value, asNumber) : Number.NaN;
    slot.exact = keep ? numberOf(value, asExactNumber) : Number.NaN;
  }
  slot.version = slot.raw === UNREAD || slot.system ? null : (version ?? null);
  return value;
}

/** A number or numeric text (never a boolean) as a number, else NaN. */
function numberOf(v: Value, convert: (v: Value) => number | null): number {
  return typeof v === 'number' || typeof v === 'string' ? (convert(v) ?? Number.NaN) : Number.NaN;
}

/**
 * readName for arithmetic: the number a name stands for (see NameSlot.number), or NaN where the
 * general path must decide. The number of a stored text is converted once, with the text.
 * (A store without a version never matches: the slot's is null then.) Kept small, so that V8
 * inlines it into the numeric parts that read names.
 */
export function readNumber(run: Run, slot: NameSlot): number {
  return run.options.store.version === slot.version && (slot.index < 0 || remembered(run, slot))
    ? slot.number
    : readNumberAgain(run, slot, false);
}

/** readNumber for comparing: `exact` (see asExactNumber). */
export function readExact(run: Run, slot: NameSlot): number {
  return run.options.store.version === slot.version && (slot.index < 0 || remembered(run, slot))
    ? slot.exact
    : readNumberAgain(run, slot, true);
}

/**
 * Whether a name read again in the run gives the slot's value, as readName would (the first
 * read of the run remembers it).
 */
function remembered(run: Run, slot: NameSlot): boolean {
  const known = run.values[slot.index];
  if (known !== undefined) return known === slot.value;
  run.values[slot.index] = slot.value;
  return true;
}

/** readNumber's read through readName (apart, so the common case above stays small enough to inline). */
function readNumberAgain(run: Run, slot: NameSlot, exact: boolean): number {
  const v = readName(run, slot);
  if (typeof v === 'number') return v;
  // (A text like the slot's stands for the same number.)
  return typeof v === 'string' && v === slot.value ? (exact ? slot.exact : slot.number) : Number.NaN;
}

export function writeName(run: Run, slot: NameSlot, value: Value, clear: boolean): void {
  if (slot.name.startsWith('project.'))
    throw new FormulaError(`${slot.name} is a project constant and cannot be changed here`);
  let text: string | null = null;
  if (!clear && value !== null) {
    text = serializeValue(value, run);
    // A list or dict is written anew; a text or number is stored as it is.
    if (typeof value === 'object') run.alloc(2 * text.length);
  }
  run.options.store.set(slot.name, text);
  run.values[slot.index] = clear ? null : value;
}
