import { assistantSystemPrompt, byPriority, HANDOFF_TOOL, handoffCall } from '@/lib/ai/assistant';
import { joinSystem, knowledgeSection } from '@/lib/ai/prompt';
import type { Block } from '@/lib/schema';
import { listAssistants } from '@/server/ai/ai-settings';
import { knowledgeExcerpts } from '@/server/ai/knowledge-context';
import { askOperator } from '../ask-operator';
import { expressionHolds } from '../expression-holds';
import type { RunContext } from '../run-context';
import { conversationTurns, fallbackBlock, runAiCall } from './ai';

/**
 * The project's assistant answers a client's message that nothing else did (after the start
 * conditions, the arrows and the not_state blocks; docs/ai.md). The first enabled assistant by
 * priority whose launch condition holds answers; none: the message stays unanswered, as before.
 * Answers whether an assistant took the message, and the fallback block of one whose call failed
 * (entered next).
 */
export async function assistantStep(
  run: RunContext,
  text: string,
): Promise<{ answered: boolean; fallback?: Block | null }> {
  const assistants = byPriority(
    (await listAssistants(run.db, run.project.id)).map((a) => ({ id: a.id, ...a.settings })),
  );
  for (const assistant of assistants) {
    if (!(await expressionHolds(run, assistant.condition, { assistantId: assistant.id }))) continue;
    // A test's AI answers from its stub: the knowledge base is not searched for it.
    const knowledge =
      assistant.useKnowledge && !run.testRun
        ? await knowledgeExcerpts(run, assistant.provider, text, { assistantId: assistant.id })
        : [];
    // The answer is plain text, streamed to the client as written; the handoff is a tool call.
    const outcome = await runAiCall(
      run,
      {
        provider: assistant.provider,
        system: joinSystem(assistantSystemPrompt(assistant), knowledgeSection(knowledge)),
        messages: await conversationTurns(run, Math.max(1, assistant.history)),
        temperature: assistant.temperature,
        maxTokens: assistant.maxTokens,
        tools: assistant.handoff ? [HANDOFF_TOOL] : undefined,
      },
      { assistantId: assistant.id, assistant: assistant.name },
      true,
    );
    // A failure gives the fallback block, which the event enters next.
    if (!outcome.ok) return { answered: true, fallback: fallbackBlock(run, assistant.fallbackBlockId, null) };
    const handoff = handoffCall(outcome.toolCalls);
    // The model's text, else what its handoff says to tell the client (models often call a
    // tool without writing text).
    const said = outcome.text.trim() || handoff?.message || '';
    if (said)
      run.send({
        text: said,
        attachments: [],
        buttons: null,
        blockId: null,
        messageFromOutside: run.messageFromOutside,
      });
    if (handoff) {
      await askOperator(run);
      run.note('assistant_handoff', { assistantId: assistant.id, reason: handoff.reason });
    }
    return { answered: true };
  }
  return { answered: false };
}
