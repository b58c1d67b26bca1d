import type { ArrowKind, BlockKind } from './bot-schema';

/** What a kind does and when a designer reaches for it, in a sentence each. */
export interface KindHelp {
  does: string;
  useFor: string;
}

/**
 * bot-semantics §1 and §2 in the builder's words: the palette, the block editor and the arrow
 * editor all show these, so a kind is explained the same way wherever it is met.
 */
export const BLOCK_KIND_HELP: Readonly<Record<BlockKind, KindHelp>> = {
  start: {
    does: 'Where a conversation begins. Its trigger is checked on every message before anything else; the start block with an empty trigger greets new clients.',
    useFor: 'the first greeting, and commands such as /start or "menu" that work from anywhere.',
  },
  state: {
    does: 'A step of the dialogue: the bot sends the message and the client stays here until a reply follows one of its arrows.',
    useFor: 'questions and menus, anything that waits for the client.',
  },
  not_state: {
    does: 'Sends its message but leaves the client where they were: the client never stands here, so it cannot wait for a reply.',
    useFor: 'a reminder at the end of a timer, an error or validation reply.',
  },
  not_state_condition: {
    does: 'Answers a message that nothing else matched, wherever the client is: its trigger is checked last, after the arrows of the current block. The client stays where they were.',
    useFor: 'answers that work at any step, such as opening hours or "talk to a human".',
  },
  close_deal: {
    does: "The client moves here and the deal's collected variables are submitted (a submission, the CRM view, the webhook), then discarded: the next deal starts empty.",
    useFor: 'the end of an order or a request form.',
  },
  data_transfer: {
    does: "Submits the deal's variables like Close deal, but keeps them: the deal goes on.",
    useFor: 'handing over what was collected so far (a lead) and carrying on.',
  },
  comment: {
    does: 'A sticky note on the canvas for whoever edits the bot; the bot never runs it.',
    useFor: 'explaining a part of the bot.',
  },
};

export const ARROW_KIND_HELP: Readonly<Record<ArrowKind, KindHelp>> = {
  condition: {
    does: "Followed when the client's reply matches one of its alternatives (separated by ;): exactly, by keywords, fuzzily or by a regular expression, and an optional comparison holds.",
    useFor: 'buttons and expected answers; "show as a button" turns the first alternative into a button.',
  },
  unconditional: {
    does: "Followed on any reply that none of the block's condition arrows matched.",
    useFor: 'free answers such as a name or an e-mail (with data collection), or a fallback.',
  },
  continue: {
    does: 'Followed at once, right after the block is sent, without waiting for a reply.',
    useFor: 'two messages in a row, or going on from a block that does not wait (not a state).',
  },
  timer: {
    does: 'Followed by itself after a delay or at a date and time, without a reply; timers survive restarts.',
    useFor: 'reminders and follow-ups.',
  },
};
