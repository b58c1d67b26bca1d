import { z } from 'zod';

/** A project secret's name, as `#{secret.NAME}` refers to it (docs/secrets.md). */
export const secretNameSchema = z
  .string()
  .trim()
  .min(1, 'empty: name the secret, e.g. OPENAI_API_KEY')
  .max(64, 'at most 64 characters')
  // Empty is said once, by min(1).
  .regex(
    /^([A-Za-z_][A-Za-z0-9_]*)?$/,
    'letters, digits and _ only, not starting with a digit (e.g. CRM_TOKEN)',
  );

export const MAX_SECRET_BYTES = 8 * 1024;

export const secretValueSchema = z
  .string()
  .min(1, 'empty: paste the secret')
  .refine(
    (v) => new TextEncoder().encode(v).length <= MAX_SECRET_BYTES,
    `at most ${MAX_SECRET_BYTES / 1024} KB`,
  );

export const secretInputSchema = z.object({ name: secretNameSchema, value: secretValueSchema });
