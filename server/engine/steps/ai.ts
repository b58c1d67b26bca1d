import type { BlockAi } from '@/lib/ai/block-ai';
import { describeParameters } from '@/lib/ai/chat-parameters';
import {
  type ArrowOption,
  arrowChoicePrompt,
  type ChatTurn,
  chosenArrow,
  fieldsJsonSchema,
  fieldValues,
  historyTurns,
  joinSystem,
  knowledgeSection,
} from '@/lib/ai/prompt';
import type { Arrow, Block } from '@/lib/schema';
import { type AiCallOutcome, type AiCallRequest, callAi } from '@/server/ai/ai-call';
import { draftPublisher } from '@/server/ai/draft-stream';
import { knowledgeExcerpts } from '@/server/ai/knowledge-context';
import { getHistory } from '@/server/contacts/history-service';
import { channelFor } from '@/server/engine/channel-port';
import { leaseSeconds } from '../client-lease';
import type { RunContext } from '../run-context';

/**
 * The AI parts of a block (docs/ai.md): the step run on entering it (between the request and the
 * message), and the AI choice of arrow. The call holds no connection or transaction; the client's
 * lease bounds it (an event never outlives its lease), so a later message of the client waits
 * for it and is run after, in order, while other clients and projects go on.
 */

/** What is left of the event's lease for AI calls, ms, keeping 15 s for the event's own write. */
export function aiTimeLeft(run: RunContext): number {
  return leaseSeconds() * 1000 - 15_000 - (performance.now() - run.startedAt);
}

/** The conversation so far as chat turns: stored messages, the one this event brought, what it sent. */
export async function conversationTurns(run: RunContext, limit: number): Promise<ChatTurn[]> {
  if (limit <= 0) return [];
  const stored = await getHistory(run.db, run.project.id, run.client.id, { limit, newest: true });
  return historyTurns(
    [
      ...stored.map((m) => ({ direction: m.direction, text: m.text })),
      ...(run.incoming ? [{ direction: 'in' as const, text: run.incoming.text }] : []),
      ...run.outgoing.map((m) => ({ direction: 'out' as const, text: m.text })),
    ],
    limit,
  );
}

/**
 * Calls the provider for the event, logging the call or its failure. A `streamed` answer (one
 * sent as the client's message as written) reaches a client whose channel shows the bot typing
 * (the chat widget) as drafts while it is written.
 */
export async function runAiCall(
  run: RunContext,
  request: AiCallRequest,
  where: Record<string, unknown>,
  streamed = false,
): Promise<AiCallOutcome> {
  const drafts =
    streamed && channelFor(run.client.clientType).typingIndicator
      ? draftPublisher(run.project.id, run.client.id)
      : undefined;
  const live = () =>
    callAi(
      { db: run.db, project: run.project, now: run.now, maxMs: aiTimeLeft(run), onText: drafts?.onText },
      request,
    );
  const outcome = run.testRun ? await run.testRun.ai(request, where, live) : await live();
  drafts?.end(!outcome.ok);
  if (outcome.ok)
    run.note('ai', {
      ...where,
      provider: outcome.provider,
      model: outcome.model,
      inputTokens: outcome.usage.inputTokens,
      outputTokens: outcome.usage.outputTokens,
      ...(outcome.usage.estimated && { estimatedTokens: true }),
      ...(outcome.learned && { learned: describeParameters(outcome.parameters) }),
      ms: outcome.ms,
      answer: outcome.text.slice(0, 10_000),
      ...(outcome.toolCalls?.length && { toolCalls: outcome.toolCalls.map((c) => c.name) }),
      ...(outcome.attempts > 1 && { attempts: outcome.attempts }),
    });
  else
    run.note('ai_error', {
      ...where,
      reason: outcome.reason,
      provider: outcome.provider,
      message: outcome.message,
    });
  return outcome;
}

/** What the block's AI step gives: the answer to send as the message, the block to enter after. */
export interface AiStepOutcome {
  answer?: string;
  /** A failed call's fallback block: entered once this block is done. */
  fallback?: Block | null;
}

/**
 * The block's AI step: its answer is returned to be sent as the block's message (sendAnswer),
 * stored, or spread over the structured fields' variables. A failure returns the fallback block,
 * which the client goes to once this block is done, and nothing of the answer is sent.
 */
export async function aiStep(run: RunContext, block: Block & { ai: BlockAi }): Promise<AiStepOutcome> {
  const { ai } = block;
  await run.templates.prepareExpressions(ai.system, ai.prompt);
  const prompt = run.templates.render(ai.prompt);
  // A test's AI answers from its stub: the knowledge base is not searched for it.
  const knowledge =
    ai.useKnowledge && !run.testRun
      ? await knowledgeExcerpts(run, ai.provider, prompt, { blockId: block.id })
      : [];
  const messages = [
    ...(await conversationTurns(run, ai.history)),
    { role: 'user' as const, content: prompt },
  ];
  const outcome = await runAiCall(
    run,
    {
      provider: ai.provider,
      system: joinSystem(run.templates.render(ai.system), knowledgeSection(knowledge)),
      messages,
      temperature: ai.temperature,
      maxTokens: ai.maxTokens,
      jsonSchema: ai.fields.length ? fieldsJsonSchema(ai.fields) : undefined,
    },
    { blockId: block.id },
    ai.sendAnswer && !ai.fields.length,
  );
  if (!outcome.ok) return { fallback: fallbackBlock(run, ai.fallbackBlockId, block.id) };
  if (ai.fields.length) {
    const { values, problems } = fieldValues(ai.fields, outcome.json);
    for (const { variable, value } of values) run.variables.trySet(variable, value);
    if (problems.length)
      run.note('ai_error', {
        blockId: block.id,
        reason: 'bad_answer',
        message: `the structured answer: ${problems.join('; ')}`,
      });
  }
  if (ai.saveInto) run.variables.trySet(ai.saveInto, outcome.text);
  return { answer: ai.sendAnswer && !ai.fields.length ? outcome.text : undefined };
}

/** The block a failed call sends the client to (when one is set), logged when the bot has none. */
export function fallbackBlock(
  run: RunContext,
  fallbackBlockId: number | undefined | null,
  fromBlockId: number | null,
): Block | null {
  if (!fallbackBlockId) return null;
  const fallback = run.bot.blocks.get(fallbackBlockId);
  if (!fallback) {
    run.note('ai_error', {
      blockId: fromBlockId,
      reason: 'fallback',
      message: `the fallback block ${fallbackBlockId} does not exist in this bot`,
    });
    return null;
  }
  return fallback;
}

/** What an arrow is for, as the model is told: its description, else its condition and target. */
function arrowDescription(run: RunContext, arrow: Arrow): string {
  if (arrow.description?.trim()) return arrow.description.trim();
  const target = run.bot.blocks.get(arrow.to)?.name;
  const said = arrow.condition?.alternatives.trim();
  return (
    [said ? `the client means "${said}"` : '', target ? `(goes to "${target}")` : '']
      .filter(Boolean)
      .join(' ') || `arrow ${arrow.id}`
  );
}

/**
 * The AI choice of arrow: a reply that matched none of the block's condition arrows is
 * classified by the model among them; null when it picks none or cannot answer.
 */
export async function chooseArrow(
  run: RunContext,
  block: Block & { ai: BlockAi },
  arrows: readonly Arrow[],
  text: string,
) {
  const options: ArrowOption[] = arrows.map((a) => ({
    arrowId: a.id,
    description: arrowDescription(run, a),
  }));
  const { system, schema } = arrowChoicePrompt(options);
  const outcome = await runAiCall(
    run,
    {
      provider: block.ai.provider,
      system,
      messages: [{ role: 'user', content: text }],
      temperature: 0,
      maxTokens: 20,
      jsonSchema: schema,
    },
    { blockId: block.id, choice: true },
  );
  if (!outcome.ok) return null;
  const arrowId = chosenArrow(options, outcome.json);
  return arrows.find((a) => a.id === arrowId) ?? null;
}
