import { type Block, type Button, type Buttons, buttonSchema } from '@/lib/schema';
import type { PendingMessage, RunContext } from '../run-context';

/**
 * Step 4: buttons, then the text with `#{...}` substituted, to be sent with attachments; nothing
 * (null) when the text renders empty and there is no attachment. The block's AI answer, when it
 * is sent as the message, takes the text's place as it is: a model's words are never a template.
 */
export async function messageStep(
  run: RunContext,
  block: Block,
  aiAnswer?: string,
): Promise<PendingMessage | null> {
  const own = block.buttons;
  const buttons = (Array.isArray(own) ? own : (own?.buttons ?? [])).concat(
    run.bot.arrowButtons.get(block.id) ?? [],
  );
  const hint = own && !Array.isArray(own) ? own.hint : null;
  const { templates } = run;
  await templates.prepareExpressions(
    block.text,
    ...block.attachments.map((a) => a.url),
    ...buttons.map((b) => b.text),
    hint ?? '',
  );
  const text = aiAnswer ?? templates.render(block.text);
  const attachments = block.attachments
    .map((a) => ({ type: a.type, url: templates.render(a.url, 'url') }))
    .filter((a) => a.url);
  if (!text.trim() && !attachments.length) return null;
  return {
    text,
    attachments,
    buttons: renderButtons(run, buttons, hint),
    blockId: block.id,
    messageFromOutside: run.messageFromOutside,
  };
}

function renderButtons(run: RunContext, list: Button[], hint: string | null): Buttons | null {
  if (!list.length) return null;
  const { templates } = run;
  const rendered = list.map((b) => buttonSchema.parse({ ...b, text: templates.render(b.text) || b.text }));
  return hint !== null ? { hint: templates.render(hint), buttons: rendered } : rendered;
}
