import { type Arrow, type Attachment, BLOCK_KIND_RULES, type Block, type Condition } from '@/lib/schema';
import { attemptsVariable, checkInput } from '@/lib/schema/input-check';
import { dealMovedMeanwhile } from '@/server/contacts/deal-service';
import { MESSAGE_FROM } from '@/server/contacts/history-service';
import { DomainError } from '@/server/errors';
import { movesClient } from './compiled-bot';
import type { EngineEvent } from './events';
import { expressionHolds } from './expression-holds';
import { routeMessage } from './routing';
import { LoopGuard, type RunState } from './run-state';
import { actionsStep } from './steps/actions';
import { aiStep, chooseArrow } from './steps/ai';
import { assistantStep } from './steps/assistant';
import { continueStep } from './steps/continue';
import { formulaStep } from './steps/formula';
import { inputAnswered, inputRetryStep } from './steps/input';
import { messageStep } from './steps/message';
import { requestStep } from './steps/request';
import { submitStep } from './steps/submit';
import { timersStep } from './steps/timers';

/**
 * Runs one event over its run state: routes a message (routing.ts, pure), enters blocks as a
 * sequence of steps (bot-semantics §1, "What entering a block does, in order"), as the table
 * of block kinds (BLOCK_KIND_RULES) says. Each step sees the event as its `RunContext` and
 * returns what happens next (the message to send, the blocks to enter), which this carries out.
 */
export async function runEvent(run: RunState, event: EngineEvent): Promise<void> {
  try {
    await dispatch(run, event);
  } catch (error) {
    if (!(error instanceof LoopGuard)) throw error;
  }
}

async function dispatch(run: RunState, event: EngineEvent): Promise<void> {
  switch (event.type) {
    case 'message':
      return onMessage(run, event);
    case 'enter_block':
      run.setMessageFromOutside(event.messageFromOutside);
      return enterBlock(run, run.requireBlock(event.blockId), 'api');
    case 'send':
      run.setMessageFromOutside(event.messageFromOutside);
      run.send({
        text: run.templates.render(event.text),
        attachments: event.attachments ?? [],
        buttons: event.buttons ?? null,
        blockId: null,
        messageFromOutside: event.messageFromOutside,
        dedupeKey: event.dedupeKey,
      });
      return;
    case 'scheduled':
      return onScheduled(run, event.scheduledSendId);
    case 'reply':
      run.setMessageFromOutside(MESSAGE_FROM.crm);
      run.send({
        text: event.text,
        attachments: [],
        buttons: null,
        blockId: null,
        messageFromOutside: MESSAGE_FROM.crm,
        senderMemberId: event.memberId,
      });
      run.note('operator_reply', { memberId: event.memberId });
      return;
    case 'move_deal':
      return onMoveDeal(run, event);
  }
}

/**
 * A deal moved from outside the bot (server/crm/move-deal.ts, docs/crm.md): under the client's
 * lease, so two moves of one deal at once run one after the other, and the second, which
 * expected the stage the first moved it from, is refused. Stored as a system message
 * (`message_from_outside` 2) that no block answers.
 */
async function onMoveDeal(run: RunState, event: Extract<EngineEvent, { type: 'move_deal' }>) {
  const stage = await run.db.crmState.findFirst({ where: { id: event.stateId, projectId: run.project.id } });
  if (!stage)
    throw new DomainError(
      'not_found',
      `Stage ${event.stateId} does not exist in this project (it may have been deleted). Stage ids are shown on the Deals tab's Funnels page.`,
      'stateId',
    );
  // A board's move names the deal it saw: closed meanwhile, it is no longer the client's open one.
  if (event.dealId !== null && event.dealId !== run.deals.id) {
    if (event.expectedStateId !== undefined) throw await dealMovedMeanwhile(run.db, event.dealId);
    throw new DomainError(
      'conflict',
      `Deal #${event.dealId} is closed (won, lost or submitted) meanwhile: it no longer moves between stages. Reload the board.`,
      'dealId',
    );
  }
  const deal = await run.db.deal.findUnique({
    where: { id: run.deals.id },
    select: { stateId: true, state: true },
  });
  const current = deal?.stateId ?? null;
  if (event.expectedStateId !== undefined && event.expectedStateId !== current)
    throw await dealMovedMeanwhile(run.db, run.deals.id);
  if (current === stage.id) return;
  const text = `Deal #${run.deals.id} moved to "${stage.name}"${deal?.state ? ` from "${deal.state.name}"` : ''}`;
  run.receive(
    {
      text,
      attachments: [],
      blockId: run.currentBlockId,
      messageFromOutside: MESSAGE_FROM.crm,
      senderMemberId: event.memberId,
    },
    { question: text, attachmentUrl: '', callbackQueryId: '' },
  );
  await run.deals.moveTo(stage);
}

/** Who last moved the client's deal by hand (the history's last CRM message with a member). */
async function onMessage(run: RunState, event: Extract<EngineEvent, { type: 'message' }>) {
  const from = event.messageFromOutside ?? MESSAGE_FROM.client;
  run.receive(
    {
      text: event.text,
      attachments: event.attachments ?? [],
      blockId: run.currentBlockId,
      messageFromOutside: from,
      dedupeKey: event.dedupeKey,
    },
    {
      question: event.text,
      attachmentUrl: event.attachments?.[0]?.url ?? '',
      callbackQueryId: event.callbackQueryId ?? '',
    },
  );
  for (const [name, value] of Object.entries(event.variables ?? {})) run.variables.trySet(name, value);
  if (event.channelState) run.setChannelState(event.channelState);
  run.note('event', { text: event.text, from });
  if (run.paused && !event.resumesBot) {
    // Stored (and delivered to the webhook) with the event; an operator answers it.
    run.note('paused', { text: event.text });
    return;
  }

  const current = run.currentBlockId === null ? undefined : run.bot.blocks.get(run.currentBlockId);
  // A block's input check (steps/input.ts) sees only what the client wrote, not callbacks.
  const input = from === MESSAGE_FROM.client ? current?.input : undefined;
  const verdict = input ? checkInput(input, event.text) : null;
  const target = await routeMessage(
    run.bot,
    run.currentBlockId,
    event.text,
    (condition, arrow) => conditionHolds(run, condition, arrow),
    current?.ai?.chooseArrow
      ? (arrows) => chooseArrow(run, { ...current, ai: current.ai! }, arrows, event.text)
      : undefined,
    verdict?.ok === false,
  );
  if (target?.via === 'input_retry' && input) {
    const exit = await inputRetryStep(run, target.block, input);
    if (exit) await enterBlock(run, run.bot.blocks.get(exit.to)!, 'input_exit', exit.id);
    return;
  }
  if (verdict?.ok && input && target?.via !== 'start' && target?.via !== 'entry')
    inputAnswered(run, input, verdict.value);
  if (!target && run.paused) {
    // Caught by nothing: the conversation stays with the operators.
    run.note('paused', { text: event.text });
    return;
  }
  if (!target) {
    // The assistant answers what the client wrote or said; a callback (a call's event, an
    // integrator's `callback`, an API message) is an event for the flow, not a question.
    const assistant = from === MESSAGE_FROM.client ? await assistantStep(run, event.text) : null;
    if (assistant?.answered) {
      if (assistant.fallback) run.queueBlock(assistant.fallback);
      for (const next of run.takeQueuedBlocks()) await enterBlock(run, next, 'ai_fallback');
      return;
    }
    run.note('no_match', { text: event.text, blockId: run.currentBlockId });
    return;
  }
  const arrow = target.via === 'arrow' || target.via === 'ai_choice' ? target.arrow : undefined;
  if (arrow?.collectInto) run.variables.trySet(arrow.collectInto, event.text);
  if (run.paused) run.resumeBot();
  await enterBlock(run, target.block, target.via, arrow?.id);
}

/** The comparison expression and condition request of a matched condition. */
async function conditionHolds(run: RunState, condition: Condition, arrow?: Arrow): Promise<boolean> {
  if (arrow?.request) await requestStep(run, arrow.request, { arrowId: arrow.id });
  return expressionHolds(run, condition.expression, { arrowId: arrow?.id });
}

async function onScheduled(run: RunState, scheduledSendId: number) {
  const send = await run.db.scheduledSend.findFirst({
    where: { id: scheduledSendId, projectId: run.project.id, clientId: run.client.id },
  });
  if (send?.status !== 'pending') return;
  const payload = send.payload as {
    cancelIfLeft?: boolean;
    text?: string;
    blockId?: number;
    attachments?: Attachment[];
  };
  if (send.kind === 'timer') {
    if (run.paused) {
      // Skipped, not kept for later: a reminder meant for a bot conversation is stale after a handoff.
      run.timers.finish(send.id, 'cancelled');
      run.note('timer_cancelled', { arrowId: send.arrowId, reason: 'the bot is paused for this client' });
      return;
    }
    // Leaving the block cancels such a timer at once; this catches one scheduled before that
    // rule, or under a revision of the bot whose arrows the move no longer looked for.
    if (payload.cancelIfLeft && run.currentBlockId !== send.blockId) {
      run.timers.finish(send.id, 'cancelled');
      run.note('timer_cancelled', { arrowId: send.arrowId, reason: 'the client left the block' });
      return;
    }
    const arrow = [...run.bot.arrowsFrom.values()].flat().find((a) => a.id === send.arrowId);
    if (!arrow) {
      // Scheduled under a version of the bot that had the arrow (bot-semantics §9).
      run.timers.finish(send.id, 'cancelled');
      run.note('timer_cancelled', { arrowId: send.arrowId, reason: 'the bot no longer has this arrow' });
      return;
    }
    run.timers.finish(send.id, 'sent');
    run.note('timer_fired', { arrowId: send.arrowId });
    run.setMessageFromOutside(0);
    await enterBlock(run, run.requireBlock(arrow.to), 'timer', arrow.id);
    return;
  }
  if (payload.blockId && !payload.text) {
    const block = run.bot.blocks.get(payload.blockId);
    if (!block) {
      // A block's delayed send whose block a later version removed (bot-semantics §9).
      run.timers.finish(send.id, 'cancelled');
      run.note('scheduled_cancelled', {
        blockId: payload.blockId,
        reason: 'the bot no longer has this block',
      });
      return;
    }
    run.timers.finish(send.id, 'sent');
    await enterBlock(run, block, 'api');
    return;
  }
  run.timers.finish(send.id, 'sent');
  await run.templates.prepareExpressions(payload.text ?? '');
  run.send({
    text: run.templates.render(payload.text ?? ''),
    attachments: payload.attachments ?? [],
    buttons: null,
    blockId: payload.blockId ?? null,
    messageFromOutside: MESSAGE_FROM.api,
    // The send's own key: a retried job finds it stored and sends nothing twice.
    dedupeKey: `scheduled-${send.id}`,
  });
}

/** bot-semantics §1, "What entering a block does, in order". */
async function enterBlock(run: RunState, block: Block, via: string, arrowId?: number): Promise<void> {
  if (run.paused) {
    run.note('paused', { blockId: block.id, via });
    return;
  }
  run.enteringBlock(block.id);
  if (!BLOCK_KIND_RULES[block.kind].runs) return;
  // A client who comes back to an input block starts its count of wrong answers again.
  if (block.input && run.variables.get(attemptsVariable(block.input)) !== undefined)
    run.variables.trySet(attemptsVariable(block.input), null);
  run.note('block', { blockId: block.id, name: block.name, kind: block.kind, via, arrowId });

  await actionsStep(run, block);
  const { handoffFailed } = await formulaStep(run, block);
  if (block.request) await requestStep(run, block.request, { blockId: block.id });
  const ai = block.ai?.prompt.trim() ? await aiStep(run, { ...block, ai: block.ai }) : undefined;
  if (ai?.fallback) run.queueBlock(ai.fallback);
  // Its message would tell the client an operator answers, while none was asked.
  if (handoffFailed)
    run.note('message_withheld', {
      blockId: block.id,
      reason: 'its ask_operator() failed, so no operator was asked',
    });
  else {
    const message = await messageStep(run, block, ai?.answer);
    if (message) run.send(message);
  }
  await submitStep(run, block);
  if (movesClient(block)) await run.moveClientTo(block.id);
  for await (const next of timersStep(run, block)) await enterBlock(run, next.block, next.via, next.arrowId);
  for (const next of continueStep(run, block)) await enterBlock(run, next.block, next.via, next.arrowId);
  // message(client_id, '', id) from this block's formula, a failed AI step's fallback: entered last.
  for (const next of run.takeQueuedBlocks()) await enterBlock(run, next, 'message()');
}
