import {
  ASSISTANT_ANSWER_SCHEMA,
  assistantSystemPrompt,
  byPriority,
  readAssistantAnswer,
} from '@/lib/ai/assistant';
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
    const outcome = await runAiCall(
      run,
      {
        provider: assistant.provider,
        system: joinSystem(assistantSystemPrompt(assistant), knowledgeSection(knowledge)),
        messages: await conversationTurns(run, Math.max(1, assistant.history)),
        temperature: assistant.temperature,
        maxTokens: assistant.maxTokens,
        jsonSchema: ASSISTANT_ANSWER_SCHEMA,
      },
      { assistantId: assistant.id, assistant: assistant.name },
    );
    // A failure queues the fallback block, which the event enters next.
    if (!outcome.ok) {
      aiFallBack(run, assistant.fallbackBlockId, null);
      return true;
    }
    const answer = readAssistantAnswer(outcome.json);
    if (!answer) {
      run.note('ai_error', {
        assistantId: assistant.id,
        reason: 'bad_answer',
        message: 'the model did not answer as asked (JSON with answer and handoff)',
      });
      aiFallBack(run, assistant.fallbackBlockId, null);
      return true;
    }
    if (answer.answer.trim())
      run.send({
        text: answer.answer,
        attachments: [],
        buttons: null,
        blockId: null,
        messageFromOutside: run.system.messageFromOutside,
      });
    if (answer.handoff && assistant.handoff) {
      await askOperator(run);
      run.note('assistant_handoff', { assistantId: assistant.id });
    }
    return true;
  }
  return false;
}
