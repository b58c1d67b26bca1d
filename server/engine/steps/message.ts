import { type Block, type Button, type Buttons, buttonSchema } from '@/lib/schema';
import type { RunState } from '../run-state';

/**
 * Step 4: buttons, then the text with `#{...}` substituted, sent with attachments; nothing is
 * sent when the text renders empty and there is no attachment. The block's AI answer, when it
 * is sent as the message, takes the text's place as it is: a model's words are never a template.
 */
export async function messageStep(run: RunState, block: Block, aiAnswer?: string): Promise<void> {
  const own = block.buttons;
  const buttons = (Array.isArray(own) ? own : (own?.buttons ?? [])).concat(
    run.bot.arrowButtons.get(block.id) ?? [],
  );
  const hint = own && !Array.isArray(own) ? own.hint : null;
  await run.prepareExpressions(
    block.text,
    ...block.attachments.map((a) => a.url),
    ...buttons.map((b) => b.text),
    hint ?? '',
  );
  const text = aiAnswer ?? run.render(block.text);
  const attachments = block.attachments
    .map((a) => ({ type: a.type, url: run.render(a.url, 'url') }))
    .filter((a) => a.url);
  if (!text.trim() && !attachments.length) return;
  run.send({
    text,
    attachments,
    buttons: renderButtons(run, buttons, hint),
    blockId: block.id,
    messageFromOutside: run.system.messageFromOutside,
  });
}

function renderButtons(run: RunState, list: Button[], hint: string | null): Buttons | null {
  if (!list.length) return null;
  const rendered = list.map((b) => buttonSchema.parse({ ...b, text: run.render(b.text) || b.text }));
  return hint !== null ? { hint: run.render(hint), buttons: rendered } : rendered;
}
