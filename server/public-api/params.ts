import { z } from 'zod';

/** Parameter schemas shared by the actions; GET gives strings, so numbers are coerced. */

export const idParam = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be a whole number` })
    .positive({ error: `${name} must be a positive number` });

export const clientIdParam = idParam('client_id');

/** A list that integrators send as a JSON array, a comma-separated string, or repeated form fields. */
export const listParam = <T extends z.ZodType>(item: T, name: string) =>
  z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : value,
    z.array(item, { error: `${name} must be a list` }),
  );

export const textParam = z.coerce.string();

/**
 * A structured parameter that GET and form bodies carry as JSON text. Text that is not JSON is
 * left as it is, so the schema reports what was expected instead of the request failing.
 */
export const jsonParam = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }, schema);
