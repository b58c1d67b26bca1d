import { FixedWindows, type RateDecision } from '@/server/public-api/rate-limit';

/**
 * The widget's rate limits, per minute, in this process's memory like the public API's: new
 * dialogs per address, messages per visitor and per address. A refused request stores nothing
 * and its answer says when to try again (widget.js shows it).
 */
export interface WidgetLimits {
  dialogsPerAddress: number;
  messagesPerVisitor: number;
  messagesPerAddress: number;
}

export const DEFAULT_WIDGET_LIMITS: WidgetLimits = {
  dialogsPerAddress: 20,
  messagesPerVisitor: 30,
  messagesPerAddress: 120,
};

let limits = DEFAULT_WIDGET_LIMITS;
const dialogs = new FixedWindows<string>();
const messages = new FixedWindows<string>();

/** For tests and the benchmark (500 visitors from one address); the app never calls it. */
export function setWidgetLimits(next: WidgetLimits): void {
  limits = next;
}

export function takeDialog(address: string, now = Date.now()): RateDecision {
  return dialogs.take(`a:${address}`, limits.dialogsPerAddress, now);
}

/** Both counters move, so one visitor's flood also counts against its address. */
export function takeMessage(clientId: number, address: string, now = Date.now()): RateDecision {
  const visitor = messages.take(`v:${clientId}`, limits.messagesPerVisitor, now);
  const byAddress = messages.take(`a:${address}`, limits.messagesPerAddress, now);
  if (!visitor.allowed) return visitor;
  return byAddress;
}
