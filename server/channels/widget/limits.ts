import type { PrismaClient } from '@/server/db/client-type';
import { type RateDecision, takeRate } from '@/server/rate-limit';

/**
 * The widget's rate limits, per minute and shared by every instance (server/rate-limit.ts):
 * new dialogs per address, messages per visitor and per address, and files (which are messages
 * too) per visitor and per address; and the bytes of files a visitor may send in a day, which
 * the stored files themselves count (server/files/stored-files.ts). A refused request stores
 * nothing and its answer says when to try again (widget.js shows it).
 */
export interface WidgetLimits {
  dialogsPerAddress: number;
  messagesPerVisitor: number;
  messagesPerAddress: number;
  filesPerVisitor: number;
  filesPerAddress: number;
  fileBytesPerVisitorPerDay: number;
}

export const DEFAULT_WIDGET_LIMITS: WidgetLimits = {
  dialogsPerAddress: 20,
  messagesPerVisitor: 30,
  messagesPerAddress: 120,
  filesPerVisitor: 5,
  filesPerAddress: 20,
  fileBytesPerVisitorPerDay: 100 * 1024 * 1024,
};

let limits = DEFAULT_WIDGET_LIMITS;

/** For tests and the benchmark (500 visitors from one address); the app never calls it. */
export function setWidgetLimits(next: Partial<WidgetLimits>): void {
  limits = { ...DEFAULT_WIDGET_LIMITS, ...next };
}

export const widgetLimits = (): WidgetLimits => limits;

export function takeDialog(db: PrismaClient, address: string, now = Date.now()): Promise<RateDecision> {
  return takeRate(db, [{ key: `widget:dialogs:${address}`, perMinute: limits.dialogsPerAddress }], now);
}

const messageLimits = (clientId: number, address: string) => [
  { key: `widget:messages:visitor:${clientId}`, perMinute: limits.messagesPerVisitor },
  { key: `widget:messages:address:${address}`, perMinute: limits.messagesPerAddress },
];

/** Both counters move, so one visitor's flood also counts against its address. */
export function takeMessage(
  db: PrismaClient,
  clientId: number,
  address: string,
  now = Date.now(),
): Promise<RateDecision> {
  return takeRate(db, messageLimits(clientId, address), now);
}

/** A file counts as a message and as a file, in one statement. */
export function takeUpload(
  db: PrismaClient,
  clientId: number,
  address: string,
  now = Date.now(),
): Promise<RateDecision> {
  return takeRate(
    db,
    [
      ...messageLimits(clientId, address),
      { key: `widget:files:visitor:${clientId}`, perMinute: limits.filesPerVisitor },
      { key: `widget:files:address:${address}`, perMinute: limits.filesPerAddress },
    ],
    now,
  );
}
