import { descriptorOfKind } from '@/lib/channels/descriptors';
import { buttonRows, numberedChoice } from '@/lib/channels/message-layout';
import type { Attachment, Button, Buttons } from '@/lib/schema';

/**
 * What a voice call does with the bot's messages, on the jambonz webhook protocol: a message's
 * text is spoken (`say`), its buttons become a `gather` of one digit each (1, 2, 3 …, announced
 * as the hint variant: "Press 1 for Yes") and speech, the digit or phrase the caller answers
 * is the client's message (the button's text for its digit), and a call with nothing left to
 * ask hangs up. Pure: the channel (server/channels/telephony) sends and receives the verbs.
 */

/** A jambonz verb as this channel uses it (docs.jambonz.org, "Webhook verbs"). */
export type Verb =
  | { verb: 'say'; text: string; synthesizer?: Synthesizer }
  | {
      verb: 'gather';
      actionHook: string;
      input: ('digits' | 'speech')[];
      numDigits?: number;
      finishOnKey?: string;
      timeout: number;
      say?: { text: string; synthesizer?: Synthesizer };
      recognizer?: { vendor: string; language: string };
    }
  | {
      verb: 'dial';
      target: { type: 'phone'; number: string }[];
      callerId?: string;
      actionHook?: string;
      /** Both legs transcribed while the dial lasts, each utterance posted to its hook. */
      transcribe?: {
        transcriptionHook: string;
        recognizer: { vendor: string; language: string; separateRecognitionPerChannel: boolean };
      };
    }
  | { verb: 'hangup' }
  | { verb: 'pause'; length: number }
  | { verb: 'redirect'; actionHook: string };

export interface Synthesizer {
  vendor: string;
  language: string;
  voice?: string;
}

/** How the channel speaks: its text-to-speech voice and language (the channel's setting). */
export interface VoiceSettings {
  vendor: string;
  language: string;
  voice: string;
}

/** A voice answer names at most 9 options, one key each (the descriptor's limit, which lint checks). */
export const MAX_VOICE_OPTIONS = descriptorOfKind('telephony')?.capabilities.maxButtons ?? 9;
/** Spoken text is cut here: a longer text is not something a caller listens to. */
export const MAX_SPOKEN_CHARS = 3000;
/** Seconds a gather waits for the caller's answer. */
export const GATHER_TIMEOUT_SECONDS = 8;
/** How many times a question is asked again after the caller said nothing; the next silence hangs up. */
export const SILENCE_REPEATS = 1;

/** The options of a message's buttons, numbered as they are announced (the designer's rows in order). */
export function voiceOptions(buttons: Buttons | null | undefined): Button[] {
  if (!buttons) return [];
  return buttonRows(Array.isArray(buttons) ? buttons : buttons.buttons)
    .flat()
    .slice(0, MAX_VOICE_OPTIONS);
}

/** What is said for a message: its text, and for buttons the hint and `Press N for …` lines. */
export function spokenText(message: { text: string; buttons: Buttons | null }): string {
  const options = voiceOptions(message.buttons);
  const hint = message.buttons && !Array.isArray(message.buttons) ? message.buttons.hint.trim() : '';
  const lines = [
    message.text.trim(),
    hint,
    ...options.map((b, i) => `Press ${i + 1} for ${b.text.trim()}.`),
  ].filter(Boolean);
  const text = lines.join('\n');
  return text.length > MAX_SPOKEN_CHARS ? `${text.slice(0, MAX_SPOKEN_CHARS - 1)}…` : text;
}

const synthesizerOf = (voice: VoiceSettings): Synthesizer => ({
  vendor: voice.vendor,
  language: voice.language,
  ...(voice.voice ? { voice: voice.voice } : {}),
});

export interface MessageForVoice {
  text: string;
  attachments: Attachment[];
  buttons: Buttons | null;
}

/**
 * One message's verbs: its text said, or for a message with buttons a `gather` that says it
 * (the caller may answer while it speaks) and waits for one digit or a phrase. Attachments are
 * not spoken (lint warns of them).
 */
export function messageVerbs(message: MessageForVoice, voice: VoiceSettings, actionHook: string): Verb[] {
  const text = spokenText(message);
  const options = voiceOptions(message.buttons);
  const synthesizer = synthesizerOf(voice);
  if (options.length)
    return [
      {
        verb: 'gather',
        actionHook,
        input: ['digits', 'speech'],
        numDigits: 1,
        timeout: GATHER_TIMEOUT_SECONDS,
        say: { text, synthesizer },
        recognizer: { vendor: voice.vendor, language: voice.language },
      },
    ];
  return text ? [{ verb: 'say', text, synthesizer }] : [];
}

/**
 * A transfer to an operator: `dial` to the number, from the channel's number; with a
 * transcription hook, a nested `transcribe` recognising the caller and the operator apart
 * (channel 1 and 2) in the channel's vendor and language.
 */
export function transferVerb(
  transfer: { number: string; callerId: string; actionHook: string; transcriptionHook?: string },
  voice: VoiceSettings,
): Verb {
  return {
    verb: 'dial',
    target: [{ type: 'phone', number: transfer.number }],
    callerId: transfer.callerId,
    actionHook: transfer.actionHook,
    ...(transfer.transcriptionHook && {
      transcribe: {
        transcriptionHook: transfer.transcriptionHook,
        recognizer: { vendor: voice.vendor, language: voice.language, separateRecognitionPerChannel: true },
      },
    }),
  };
}

/** How a turn ends once the bot's messages are said: wait for an answer, or hang up. */
export type TurnEnd = 'listen' | 'hangup';

/**
 * A turn's verbs: the messages' verbs, then, when the last of them asks nothing (no gather),
 * a gather of speech and digits (ended by #) when the bot waits for an answer, or a hangup.
 */
export function turnVerbs(verbs: Verb[], end: TurnEnd, actionHook: string, voice: VoiceSettings): Verb[] {
  const last = verbs.at(-1);
  if (end === 'hangup') return [...verbs, { verb: 'hangup' }];
  if (last?.verb === 'gather') return verbs;
  return [
    ...verbs,
    {
      verb: 'gather',
      actionHook,
      input: ['digits', 'speech'],
      finishOnKey: '#',
      timeout: GATHER_TIMEOUT_SECONDS,
      recognizer: { vendor: voice.vendor, language: voice.language },
    },
  ];
}

/** What a gather's actionHook reports (the fields this channel reads). */
export interface GatherResult {
  reason?: string;
  digits?: string;
  speech?: { alternatives?: { transcript?: string }[] };
}

/** What a gather heard: the digits pressed, or the phrase recognised. */
export type Heard = { digits: string } | { speech: string };

/** What a gather's result heard; null on a timeout or anything else (nothing was said). */
export function heardIn(result: GatherResult): Heard | null {
  if (result.reason === 'dtmfDetected' && result.digits) return { digits: result.digits };
  if (result.reason !== 'speechDetected') return null;
  const speech = result.speech?.alternatives?.[0]?.transcript?.trim();
  return speech ? { speech } : null;
}

/**
 * The client's message for what a gather heard: the digits pressed (the option's text when they
 * name one of the last message's options), or the phrase recognised.
 */
export function answerText(heard: Heard, lastButtons: Buttons | null): string {
  const options = voiceOptions(lastButtons);
  if ('digits' in heard) return numberedChoice(heard.digits, options) ?? heard.digits;
  const { speech } = heard;
  // "two" or "2" said for an option is its number too.
  const spokenDigit = SPOKEN_DIGITS[speech.toLowerCase().replace(/[.!?]$/, '')];
  if (spokenDigit && options.length) return numberedChoice(spokenDigit, options) ?? speech;
  return numberedChoice(speech, options) ?? speech;
}

const SPOKEN_DIGITS: Record<string, string> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
};

/** A call status as jambonz's call_status_hook reports it. */
export type CallStatus =
  | 'trying'
  | 'ringing'
  | 'early-media'
  | 'in-progress'
  | 'completed'
  | 'failed'
  | 'busy'
  | 'no-answer'
  | 'queued';

/** An outbound call's outcome as the delivery status of the message it was placed for. */
export function deliveryOf(status: string): { status: 'delivered' | 'failed'; error?: string } | null {
  if (status === 'in-progress' || status === 'completed') return { status: 'delivered' };
  if (status === 'busy') return { status: 'failed', error: 'the line was busy' };
  if (status === 'no-answer') return { status: 'failed', error: 'the call was not answered' };
  if (status === 'failed') return { status: 'failed', error: 'the call failed' };
  return null;
}

/** A call (or a transfer's dial) that ended with nobody answering: busy, not answered, or failed. */
export const unanswered = (status: string) =>
  status === 'busy' || status === 'no-answer' || status === 'failed';

/** The call events the bot receives as callbacks (`message_from_outside` 5). */
export const CALL_EVENTS = {
  answered: 'call_answered',
  ended: 'call_ended',
  missed: 'call_missed',
  /** A transfer's dial nobody answered: the flow may catch it, even while the bot is paused. */
  transferFailed: 'call_transfer_failed',
} as const;
