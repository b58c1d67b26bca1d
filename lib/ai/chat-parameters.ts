import { z } from 'zod';

/**
 * What a chat request sends a model besides its messages (docs/ai.md, "What each model takes"):
 * OpenAI's reasoning models (o-series, gpt-5) refuse `max_tokens` and any temperature but their
 * own, older servers do not know `max_completion_tokens`, and Gemma's chat template (1 and 2)
 * refuses a system message. The provider's settings may say which to send; automatic is the
 * model's name's guess until a refusal teaches better, and what it taught is kept per model.
 * Pure: the server loads and stores what was learnt.
 */

export const TOKEN_PARAMETERS = ['max_tokens', 'max_completion_tokens'] as const;
export type TokenParameter = (typeof TOKEN_PARAMETERS)[number];

export const tokenParameterSettingSchema = z.enum(['auto', ...TOKEN_PARAMETERS]);
export const temperatureSettingSchema = z.enum(['auto', 'send', 'omit']);

export interface ChatParameters {
  /** The name the answer's token limit is sent under. */
  tokenParameter: TokenParameter;
  /** The temperature is sent. */
  temperature: boolean;
  /** The system prompt is a system message; else it opens the first user turn. */
  system: boolean;
  /** What a refusal may change: the settings say automatic for it (no setting for the system). */
  adapt: { tokenParameter: boolean; temperature: boolean; system: boolean };
}

/** What was learnt of a model: kept per provider and model. */
export type LearnedParameters = Omit<ChatParameters, 'adapt'>;

type Refusable = TokenParameter | 'temperature' | 'system';

/** OpenAI's reasoning models by name, behind any proxy's prefix (openai/o3-mini). */
const REASONING_MODEL = /^(o\d|gpt-5)/i;

export const isReasoningModelName = (model: string) => REASONING_MODEL.test(model.split('/').pop() ?? '');

export function chatParameters(
  settings: {
    tokenParameter: z.infer<typeof tokenParameterSettingSchema>;
    temperature: z.infer<typeof temperatureSettingSchema>;
  },
  model: string,
  learned: LearnedParameters | null,
): ChatParameters {
  const reasoning = isReasoningModelName(model);
  return {
    tokenParameter:
      settings.tokenParameter !== 'auto'
        ? settings.tokenParameter
        : (learned?.tokenParameter ?? (reasoning ? 'max_completion_tokens' : 'max_tokens')),
    temperature:
      settings.temperature !== 'auto'
        ? settings.temperature === 'send'
        : (learned?.temperature ?? !reasoning),
    system: learned?.system ?? true,
    adapt: {
      tokenParameter: settings.tokenParameter === 'auto',
      temperature: settings.temperature === 'auto',
      system: true,
    },
  };
}

/** A request parameter a provider's 400 says the model does not take, or null. */
export function refusedParameter(refusal: { param?: unknown; message: string }): Refusable | null {
  const named = [...TOKEN_PARAMETERS, 'temperature'] as const;
  const param = named.find((p) => p === refusal.param);
  if (param) return param;
  // Gemma's chat template: raise_exception('System role not supported').
  if (/system role not supported/i.test(refusal.message)) return 'system';
  // Servers that do not name the param say it in words: OpenAI's "Unsupported parameter:
  // 'max_tokens'", Azure's older "Unrecognized request argument supplied: max_completion_tokens".
  const said =
    /unsupported (?:parameter|value): '(max_tokens|max_completion_tokens|temperature)'/i.exec(
      refusal.message,
    ) ??
    /unrecognized request argument supplied: (max_tokens|max_completion_tokens|temperature)\b/i.exec(
      refusal.message,
    );
  return (said?.[1]?.toLowerCase() as Refusable | undefined) ?? null;
}

/**
 * The parameters to try again with once the model refused one (each may change once, and only
 * where the settings say automatic), a sentence saying which setting to change, or null: the
 * refused one was not sent.
 */
export function adaptedParameters(
  parameters: ChatParameters,
  refused: Refusable,
): ChatParameters | { setting: string } | null {
  if (refused === 'system')
    return parameters.system && parameters.adapt.system
      ? { ...parameters, system: false, adapt: { ...parameters.adapt, system: false } }
      : null;
  if (refused === 'temperature') {
    if (!parameters.temperature) return null;
    if (!parameters.adapt.temperature)
      return {
        setting: 'the model takes no temperature: set Temperature to automatic or omit in Settings, AI',
      };
    return { ...parameters, temperature: false, adapt: { ...parameters.adapt, temperature: false } };
  }
  if (parameters.tokenParameter !== refused) return null;
  const other = TOKEN_PARAMETERS.find((p) => p !== refused) as TokenParameter;
  if (!parameters.adapt.tokenParameter)
    return {
      setting: `the model does not take ${refused}: set Token parameter to automatic or ${other} in Settings, AI`,
    };
  return { ...parameters, tokenParameter: other, adapt: { ...parameters.adapt, tokenParameter: false } };
}

/** How the parameters sent are shown (Settings, AI's Test). */
export const describeParameters = (p: LearnedParameters) =>
  `${p.tokenParameter}, ${p.temperature ? 'with' : 'no'} temperature${p.system ? '' : ', the system prompt in the first user message'}`;
