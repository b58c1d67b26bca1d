/**
 * How many webhook deliveries of one project run at once in a worker process (AIMD, as TCP's
 * congestion window): it starts low, grows while the receiver answers quickly (by one a quick
 * answer until the first slowdown, then by one a full window of quick answers) and halves when
 * an answer is slow, an error of the receiver's (5xx, 429) or none came (a timeout, a refused
 * connection). A receiver that hangs never answers, so its project stays at `initial`. Pure
 * logic: the dispatcher (server/webhooks/webhook-dispatcher.ts) counts and reports.
 */
export interface AdaptiveConcurrencyOptions {
  /** Deliveries at once before any answer came; a hanging receiver holds this many. */
  initial: number;
  min: number;
  max: number;
  /** An answer slower than this counts as the receiver slowing down. */
  slowMs: number;
}

export const WEBHOOK_CONCURRENCY: AdaptiveConcurrencyOptions = { initial: 2, min: 1, max: 64, slowMs: 1000 };

/** What came back for one delivery. `status` null: no answer (timeout, network error). */
export interface DeliveryOutcome {
  status: number | null;
  durationMs: number;
}

/** A receiver's answer that says it copes: anything but a 5xx or a 429, quickly. */
export function answeredQuickly(outcome: DeliveryOutcome, slowMs: number): boolean {
  const { status, durationMs } = outcome;
  return status !== null && status < 500 && status !== 429 && durationMs <= slowMs;
}

export class AdaptiveConcurrency {
  private window: number;
  /** Quick answers since the window last grew, above the threshold. */
  private quickAnswers = 0;
  /** Below it, the window grows by one a quick answer (slow start); above, by one a window. */
  private threshold: number;
  /** Bumped on each decrease: answers to deliveries started before it do not decrease again. */
  private epoch = 0;

  constructor(private readonly options: AdaptiveConcurrencyOptions = WEBHOOK_CONCURRENCY) {
    this.window = options.initial;
    this.threshold = options.max;
  }

  /** Deliveries that may run at once now. */
  get limit(): number {
    return this.window;
  }

  /** Call as a delivery starts; pass what it returns to `finish`. */
  start(): number {
    return this.epoch;
  }

  finish(ticket: number, outcome: DeliveryOutcome): void {
    const { min, max, slowMs } = this.options;
    if (answeredQuickly(outcome, slowMs)) {
      if (this.window < this.threshold || ++this.quickAnswers >= this.window) {
        this.window = Math.min(max, this.window + 1);
        this.quickAnswers = 0;
      }
      return;
    }
    // One decrease per window: the deliveries already under way when it slowed down say nothing new.
    if (ticket !== this.epoch) return;
    this.epoch++;
    this.window = Math.max(min, Math.floor(this.window / 2));
    this.threshold = this.window;
    this.quickAnswers = 0;
  }
}
