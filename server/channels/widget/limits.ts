import type { PrismaClient } from '@/server/db/client-type';
import { type RateDecision, takeRate } from '@/server/rate-limit';

/**
 * The widget's rate limits, per minute and shared by every instance (server/rate-limit.ts):
 * new dialogs per address, messages per visitor and per address. A refused request stores
 * nothing and its answer says when to try again (widget.js shows it).
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

/** For tests and the benchmark (500 visitors from one address); the app never calls it. */
export function setWidgetLimits(next: WidgetLimits): void {
  limits = next;
}

export function takeDialog(db: PrismaClient, address: string, now = Date.now()): Promise<RateDecision> {
  return takeRate(db, [{ key: `widget:dialogs:${address}`, perMinute: limits.dialogsPerAddress }], now);
}

/** Both counters move, so one visitor's flood also counts against its address. */
export function takeMessage(
  db: PrismaClient,
  clientId: number,
  address: string,
  now = Date.now(),
): Promise<RateDecision> {
  return takeRate(
    db,
    [
      { key: `widget:messages:visitor:${clientId}`, perMinute: limits.messagesPerVisitor },
      { key: `widget:messages:address:${address}`, perMinute: limits.messagesPerAddress },
    ],
    now,
  );
}
