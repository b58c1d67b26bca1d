import { assistantSystemPrompt, byPriority, HANDOFF_TOOL, handoffCall } from '@/lib/ai/assistant';
import { joinSystem, knowledgeSection } from '@/lib/ai/prompt';
import { listAssistants } from '@/server/ai/ai-settings';
import { knowledgeExcerpts } from '@/server/ai/knowledge-context';
import { askOperator } from '../ask-operator';
import { expressionHolds } from '../expression-holds';
import type { RunState } from '../run-state';
import { aiFallBack, conversationTurns, runAiCall } from './ai';

/**
 * The project's assistant answers a client's message that nothing else did (after the start
 * conditions, the arrows and the not_state blocks; docs/ai.md). The first enabled assistant by
 * priority whose launch condition holds answers; none: the message stays unanswered, as before.
 * Answers whether an assistant took the message (its fallback block, if any, queued).
 */
export async function assistantStep(run: RunState, text: string): Promise<boolean> {
  const assistants = byPriority(
    (await listAssistants(run.db, run.project.id)).map((a) => ({ id: a.id, ...a.settings })),
  );
  for (const assistant of assistants) {
    if (!(await expressionHolds(run, assistant.condition, { assistantId: assistant.id }))) continue;
    const knowledge = assistant.useKnowledge
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
    // A failure queues the fallback block, which the event enters next.
    if (!outcome.ok) {
      aiFallBack(run, assistant.fallbackBlockId, null);
      return true;
    }
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
        messageFromOutside: run.system.messageFromOutside,
      });
    if (handoff) {
      await askOperator(run);
      run.note('assistant_handoff', { assistantId: assistant.id, reason: handoff.reason });
    }
    return true;
  }
  return false;
}
