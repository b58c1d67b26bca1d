import { z } from 'zod';
import { descriptorOfKind } from '@/lib/channels/descriptors';

/**
 * A transferred call's transcript, as jambonz's `transcribe` verb (nested in the transfer's
 * `dial`, recognising each leg apart: `separateRecognitionPerChannel`) posts it to its
 * transcriptionHook: one `speech` object per interim or final utterance, whose `channel_tag`
 * says who spoke (1 the caller, 2 the operator dialed). Pure: the channel reads the hook
 * (server/channels/telephony) and keeps the lines.
 */

/** The `speech` object of a transcriptionHook (docs.jambonz.org, verbs/transcribe). */
export const transcriptionSpeechSchema = z.object({
  is_final: z.boolean().optional(),
  alternatives: z
    .array(z.object({ transcript: z.string().max(10_000).optional(), confidence: z.number().optional() }))
    .max(20)
    .optional(),
  channel_tag: z.number().int().optional(),
  language_code: z.string().max(40).optional(),
});

export type Speaker = 'caller' | 'operator';

/** One final utterance: who said it and what. */
export interface Utterance {
  speaker: Speaker;
  text: string;
}

/**
 * The final utterance a transcriptionHook reports, or null (an interim result, nothing said,
 * not a speech object). Channel 2 is the leg dialed (the operator); 1, or none, the caller.
 */
export function finalUtterance(speech: unknown): Utterance | null {
  const parsed = transcriptionSpeechSchema.safeParse(speech);
  if (!parsed.success || parsed.data.is_final !== true) return null;
  const text = parsed.data.alternatives?.[0]?.transcript?.trim();
  if (!text) return null;
  return { speaker: parsed.data.channel_tag === 2 ? 'operator' : 'caller', text };
}

// The caller is named as the telephony channel names its clients everywhere (descriptors).
const LABELS: Record<Speaker, string> = {
  caller: descriptorOfKind('telephony')?.person ?? 'Client',
  operator: 'Operator',
};

/** A call's transcript as the `call_transcript` variable holds it: "Caller: …\nOperator: …". */
export const transcriptText = (lines: readonly Utterance[]) =>
  lines.map((line) => `${LABELS[line.speaker]}: ${line.text}`).join('\n');
