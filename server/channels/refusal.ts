/**
 * A platform's refused call, told to the person connecting a channel: a credential it does not
 * accept (with what to do about it), the platform not reached, or the call refused. Each kind
 * names its platform and which of its API client's failure reasons mean which.
 */

export type RefusalCause = 'credential' | 'unreachable' | 'refused';

export interface PlatformRefusals {
  /** The platform as a sentence's subject: "The tg messenger", "The Cloud API". */
  platform: string;
  /** The client's failure reasons that are not a plain refusal. */
  causes: Readonly<Partial<Record<string, Exclude<RefusalCause, 'refused'>>>>;
  /** The sentence for a credential the platform does not accept, with what to do. */
  credential(description: string, what: string): string;
}

/** A failed call as its client reports it. */
export interface FailedCall {
  reason: string;
  description: string;
}

export const refusalCause = (result: FailedCall, words: PlatformRefusals): RefusalCause =>
  (Object.hasOwn(words.causes, result.reason) && words.causes[result.reason]) || 'refused';

/** The failed call as a message for the person connecting; `what` is the attempt ("read the session"). */
export function refusal(result: FailedCall, what: string, words: PlatformRefusals): string {
  const cause = refusalCause(result, words);
  if (cause === 'credential') return words.credential(result.description, what);
  if (cause === 'unreachable')
    return `${words.platform} could not be reached to ${what}: ${result.description}`;
  return `${words.platform} refused to ${what}: ${result.description}`;
}
