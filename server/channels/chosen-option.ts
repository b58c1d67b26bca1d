import { numberedChoice } from '@/lib/channels/message-layout';
import { type Buttons, buttonsSchema } from '@/lib/schema';
import type { EngineDeps } from '@/server/engine/engine-deps';

/**
 * A bare number typed in answer to the client's last message from the bot, when that message
 * showed its options as numbered text (`numbered` says so of its buttons: past the messenger's
 * limits, the hint variant, a messenger without buttons): the option's text, so the arrows match
 * it as they match a pressed button. Any other text is as typed.
 */
export async function chosenOption(
  deps: EngineDeps,
  projectId: number,
  ref: { clientType: number; groupId: string; platformId: string },
  text: string,
  numbered: (buttons: Buttons) => boolean,
): Promise<string> {
  if (!/^\s*\d{1,2}\s*[.)]?\s*$/.test(text)) return text;
  const last = await deps.db.message.findFirst({
    where: { projectId, direction: 'out', client: { projectId, ...ref } },
    orderBy: { id: 'desc' },
    select: { buttons: true },
  });
  const buttons = buttonsSchema
    .nullable()
    .catch(null)
    .parse(last?.buttons ?? null);
  if (!buttons || !numbered(buttons)) return text;
  return numberedChoice(text, Array.isArray(buttons) ? buttons : buttons.buttons) ?? text;
}
