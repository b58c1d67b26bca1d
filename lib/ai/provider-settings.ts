import { z } from 'zod';
import { temperatureSettingSchema, tokenParameterSettingSchema } from './chat-parameters';

/** An OpenAI-compatible provider as a project's admin sets it (Settings, AI; docs/ai.md). */
export const providerSettingsSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'empty: name the provider, e.g. openai or local')
    .max(100)
    // Empty is said once, by min(1).
    .regex(/^[A-Za-z0-9_.-]*$/, 'letters, digits, _, . and - only (blocks refer to it by name)'),
  /** The API's root, up to `/v1` (https://api.openai.com/v1, http://127.0.0.1:11434/v1). */
  baseUrl: z
    .string()
    .trim()
    .url('not a URL: give the API root, e.g. https://api.openai.com/v1')
    .refine((u) => /^https?:\/\//i.test(u), 'must start with http:// or https://')
    .transform((u) => u.replace(/\/+$/, '')),
  chatModel: z.string().trim().min(1, 'empty: name the model, e.g. gpt-4o-mini or llama3.1').max(200),
  /** Empty: the knowledge base cannot be indexed with this provider. */
  embeddingModel: z.string().trim().max(200).default(''),
  embeddingDimensions: z.number().int().min(8).max(4096).nullable().default(null),
  /** The project secret holding the API key (docs/secrets.md); empty for a server with no key. */
  apiKeySecret: z
    .string()
    .trim()
    .max(100)
    .regex(/^[A-Za-z0-9_]*$/, 'the name of a project secret (letters, digits, _)')
    .default(''),
  timeoutSeconds: z.number().int().min(5).max(100).default(60),
  /** Chat calls a minute, all instances together (the provider's own limit, or fewer); 0: none. */
  requestsPerMinute: z.number().int().min(0).max(100_000).default(0),
  /** The answer's token limit sent as (lib/ai/chat-parameters.ts); auto: learnt per model. */
  tokenParameter: tokenParameterSettingSchema.default('auto'),
  /** auto: sent unless the model refuses it (reasoning models). */
  temperature: temperatureSettingSchema.default('auto'),
  isDefault: z.boolean().default(false),
});
export type ProviderSettings = z.infer<typeof providerSettingsSchema>;
export type ProviderSettingsInput = z.input<typeof providerSettingsSchema>;

/** Tokens a project may spend a day; 0: no limit. */
export const aiLimitsSchema = z.object({
  dailyTokenLimit: z.number().int().min(0).max(1_000_000_000),
});
