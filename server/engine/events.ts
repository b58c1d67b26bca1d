import { z } from 'zod';
import { type Attachment, attachmentSchema, type Buttons, buttonsSchema } from '@/lib/schema';

/** What can happen to a client; every channel, the API, timers and formulas produce these. */
export type EngineEvent =
  /** A message from the client, or a callback (a system message: API 1, formula 3). */
  | {
      type: 'message';
      text: string;
      attachments?: Attachment[];
      messageFromOutside?: number;
      callbackQueryId?: string;
      /**
       * The channel's own id of this message, stored with it: when a message with this key is
       * already stored (the channel sent it again after a lost answer), the event does nothing.
       */
      dedupeKey?: string;
      /** Extra callback parameters, saved into deal variables before routing. */
      variables?: Record<string, string>;
      /**
       * The channel's own state of this client, stored with the event (`ClientChannelState`,
       * never the bot's variables); null removes a key.
       */
      channelState?: Record<string, string | null>;
      /**
       * A callback that hands the conversation back to the bot when the flow catches it (a
       * call's transfer nobody answered): routed even while the bot is paused for the client;
       * when it enters a block the pause ends, caught by nothing it leaves the pause as it is.
       */
      resumesBot?: boolean;
    }
  /** The API's `message` with `message_id`, or `message()` with an empty text: run the block fully. */
  | { type: 'enter_block'; blockId: number; messageFromOutside: number }
  /** Send a text to the client without running a block (API `message`, `message()` with text). */
  | {
      type: 'send';
      text: string;
      attachments?: Attachment[];
      buttons?: Buttons | null;
      messageFromOutside: number;
      dedupeKey?: string;
    }
  /** A timer arrow, delayed or scheduled message coming due. */
  | { type: 'scheduled'; scheduledSendId: number }
  /** An operator's reply from the inbox: sent as typed (no `#{...}`), `message_from_outside` 2. */
  | { type: 'reply'; text: string; memberId: number }
  /**
   * Move the client's deal to a CRM stage from outside the bot (the API's `set_order_state`,
   * the deals board): docs/crm.md. Stored in the history as a system message with
   * `message_from_outside` 2 (webhook, live event); no block runs.
   */
  | {
      type: 'move_deal';
      stateId: number;
      /** The deal the mover saw (the board); null: the client's open deal, created if none (the API). */
      dealId: number | null;
      /** The stage the mover saw the deal in; when it is elsewhere by now, nothing moves (conflict). */
      expectedStateId?: number | null;
      /** The team member who moved it (the board). */
      memberId?: number;
    };

/** The events stored in outbox rows (follow-ups), checked when they are read back. */
export const engineEventSchema: z.ZodType<EngineEvent> = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('message'),
    text: z.string(),
    attachments: z.array(attachmentSchema).optional(),
    messageFromOutside: z.number().int().optional(),
    callbackQueryId: z.string().optional(),
    variables: z.record(z.string(), z.string()).optional(),
    channelState: z.record(z.string(), z.string().nullable()).optional(),
  }),
  z.object({
    type: z.literal('enter_block'),
    blockId: z.number().int(),
    messageFromOutside: z.number().int(),
  }),
  z.object({
    type: z.literal('send'),
    text: z.string(),
    attachments: z.array(attachmentSchema).optional(),
    buttons: buttonsSchema.nullable().optional(),
    messageFromOutside: z.number().int(),
    dedupeKey: z.string().optional(),
  }),
  z.object({ type: z.literal('scheduled'), scheduledSendId: z.number().int() }),
  z.object({ type: z.literal('reply'), text: z.string(), memberId: z.number().int() }),
  z.object({
    type: z.literal('move_deal'),
    stateId: z.number().int(),
    dealId: z.number().int().nullable(),
    expectedStateId: z.number().int().nullable().optional(),
    memberId: z.number().int().optional(),
  }),
]);

export type LogKind =
  | 'event'
  | 'block'
  | 'formula'
  | 'formula_error'
  | 'request'
  | 'timer_scheduled'
  | 'timer_fired'
  | 'timer_cancelled'
  /** A block's delayed send (the API's, a formula's) that was not carried out, and why. */
  | 'scheduled_cancelled'
  | 'submission'
  | 'function'
  | 'variable_error'
  /** A `#{name}` no variable has: it rendered empty. */
  | 'unknown_variable'
  | 'loop_guard'
  | 'no_match'
  /** A reply failed its block's input check: asked again, or (exitArrowId) the exit arrow followed. */
  | 'input_invalid'
  /** The block's message was not sent: its ask_operator() failed, and the message would promise an operator. */
  | 'message_withheld'
  /** The bot is paused for the client (docs/inbox.md): what the event did not do. */
  | 'paused'
  | 'operator_reply'
  /** The deal moved to another CRM stage (from outside the bot, or a block's action). */
  | 'deal_moved'
  /** An AI call answered (docs/ai.md): provider, model, tokens, time, the answer, cited chunks. */
  | 'ai'
  /** An AI call did not answer (plan, provider, daily limit, timeout, the provider's error). */
  | 'ai_error'
  /** The knowledge base's chunks an AI call was given. */
  | 'knowledge'
  /** The assistant handed the conversation to an operator. */
  | 'assistant_handoff'
  | 'error';

export interface LogEntry {
  kind: LogKind;
  data: Record<string, unknown>;
}
