import { z } from 'zod';

/**
 * Column types as the driver adapters give them on both databases (PGlite and PostgreSQL):
 * json, timestamps and bigints may arrive as text. A statement's row schema is built from
 * these (`z.object({ id: column.int, createdAt: column.timestamp })`), so rows are checked
 * and typed where they are read, never cast.
 */
const jsonText = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

export const column = {
  int: z.number().int(),
  /** int8 columns (ids of big tables): text or number from the driver, a bigint here. */
  bigint: z.union([z.string(), z.number(), z.bigint()]).transform((value) => BigInt(value)),
  text: z.string(),
  bool: z.boolean(),
  timestamp: z.union([z.string(), z.date()]).transform((value) => new Date(value)),
  /** A json/jsonb column (or a json_agg), parsed when the driver gives text. */
  json: <T extends z.ZodType>(schema: T) => z.preprocess(jsonText, schema),
};

/** The database's clock, as stored in timestamp columns (UTC): every process compares against it. */
export const DB_NOW = `(now() AT TIME ZONE 'UTC')`;
