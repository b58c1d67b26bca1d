import type { ClientView } from '@/lib/conversation-tests/client-view';
import { messageVerbs } from './verbs';

/** The voice and hook do not change what is said; the verbs need some. */
const VOICE = { vendor: '', language: '', voice: '' };

/**
 * A message as a caller hears it (lib/telephony/verbs.ts): what its `say` or `gather` speaks,
 * the options as the spoken `Press N for …` lines (the verbs name no buttons), never a file.
 */
export const telephonyClientView: ClientView = (message) =>
  messageVerbs(message, VOICE, '').flatMap((verb) => {
    const text = verb.verb === 'say' ? verb.text : verb.verb === 'gather' ? verb.say?.text : undefined;
    return text === undefined ? [] : [{ text, buttons: [], attachments: [] }];
  });
