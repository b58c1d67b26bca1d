/**
 * What a run of conversation tests gives (docs/conversation-tests.md): for each test, what the
 * bot did at each step it reached and, for a failure, the first difference; the blocks and
 * arrows the tests passed through (coverage). Stored with the run (`TestRun.report`), shown by
 * the Tests panel, printed and written as JUnit by `blockbot test`.
 */

/** One message as the test's client got it (through the test's channel: split, numbered…). */
export interface ActualMessage {
  text: string;
  /** The buttons' texts, in order. */
  buttons: string[];
  /** The attachments' types, in order. */
  attachments: string[];
  /** The block that sent it (null: a message from outside a block). */
  blockId: number | null;
}

/** What the bot did in one step. */
export interface StepActual {
  messages: ActualMessage[];
  /** The block the client is in after the step. */
  block: number | null;
  /** The client's variables after the step (deal, client and project ones by their names). */
  variables: Record<string, string>;
}

/** The first thing a failed test found different, expected beside actual. */
export interface Difference {
  /** What differs: `messages[1].text`, `messages`, `block`, `variables.client.email`, `button`, `request`, `ai`… */
  field: string;
  expected: string;
  actual: string;
  /** One sentence for the designer, naming the block or request concerned. */
  message: string;
  /** The block to show on the canvas. */
  blockId: number | null;
}

export interface TestResult {
  testId: number;
  name: string;
  passed: boolean;
  /** The step that failed (0-based); null when it passed. */
  failedStep: number | null;
  difference: Difference | null;
  /** What each step reached did (the failed one last). */
  steps: StepActual[];
  ms: number;
}

export interface Coverage {
  /** The blocks and arrows some test passed through, by id. */
  blocks: number[];
  arrows: number[];
  /** The blocks that can run, and the arrows, of the bot tested. */
  blockTotal: number;
  arrowTotal: number;
}

export interface TestReport {
  /** 0: the draft; otherwise the version run. */
  version: number;
  startedAt: string;
  ms: number;
  passed: number;
  failed: number;
  results: TestResult[];
  coverage: Coverage;
}

/** The share of blocks covered, in whole percent (0 for a bot without blocks). */
export const coveredShare = (coverage: Coverage): number =>
  coverage.blockTotal ? Math.round((coverage.blocks.length / coverage.blockTotal) * 100) : 0;
