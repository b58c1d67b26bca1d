import { z } from 'zod';

/**
 * A block's AI settings (docs/ai.md, "The AI step"). Two independent parts: the step run on
 * entering the block (a prompt: the answer sent as the block's message and/or stored, or several
 * variables filled from one structured answer), and the AI choice of arrow (when a reply matches
 * none of the block's condition arrows, the model picks one by their descriptions).
 */

const variableName = z
  .string()
  .max(200)
  .regex(
    /^[A-Za-z_][A-Za-z0-9_.]*$/,
    'a variable name starts with a letter or _ and has letters, digits, _ and . only',
  );

export const AI_FIELD_TYPES = ['string', 'number', 'boolean'] as const;

/** One variable a structured answer fills. */
export const aiFieldSchema = z.object({
  variable: variableName,
  type: z.enum(AI_FIELD_TYPES).default('string'),
  /** What the model is told this field holds. */
  description: z.string().max(500).default(''),
});
export type AiField = z.infer<typeof aiFieldSchema>;

export const AI_LIMITS = {
  promptLength: 20_000,
  historyMessages: 50,
  maxTokens: 16_000,
  fields: 20,
} as const;

export const blockAiSchema = z.object({
  /** A provider's name (Settings, AI); empty: the project's default provider. */
  provider: z.string().max(100).default(''),
  /** The system prompt, with `#{}` variables. */
  system: z.string().max(AI_LIMITS.promptLength).default(''),
  /** The prompt, with `#{}` variables; empty: no AI step on entering (only the arrow choice). */
  prompt: z.string().max(AI_LIMITS.promptLength).default(''),
  /** How many of the conversation's last messages go with the prompt. */
  history: z.number().int().min(0).max(AI_LIMITS.historyMessages).default(10),
  temperature: z.number().min(0).max(2).default(0.7),
  maxTokens: z.number().int().min(1).max(AI_LIMITS.maxTokens).default(500),
  /** The answer is sent as the block's message (in place of its text; its buttons stay). */
  sendAnswer: z.boolean().default(true),
  /** The variable the answer is stored in; empty: none. */
  saveInto: z.union([variableName, z.literal('')]).default(''),
  /** Non-empty: structured output, one answer filling these variables (a JSON schema). */
  fields: z.array(aiFieldSchema).max(AI_LIMITS.fields).default([]),
  /** The knowledge base's best chunks go with the prompt, and are cited in the log. */
  useKnowledge: z.boolean().default(false),
  /** A reply that matches none of the block's condition arrows: the model picks one. */
  chooseArrow: z.boolean().default(false),
  /** Where the client goes when the AI cannot answer (limit, timeout, provider error). */
  fallbackBlockId: z.number().int().positive().optional(),
});
export type BlockAi = z.infer<typeof blockAiSchema>;
export type BlockAiInput = z.input<typeof blockAiSchema>;
