import { z } from 'zod';

// PostgreSQL cannot store U+0000 in text or jsonb; rejecting it here turns a driver error into a 422.
const NUL = /\u0000/;

/** A non-empty single-line string of at most `max` characters, without NUL bytes. */
export function text(max = 255) {
  return z
    .string()
    .min(1)
    .max(max)
    .refine((v) => !NUL.test(v), { message: 'must not contain NUL characters' });
}

/** Free text (notes, descriptions, paths): may be empty, without NUL bytes. */
export function longText(max = 10_000) {
  return z
    .string()
    .max(max)
    .refine((v) => !NUL.test(v), { message: 'must not contain NUL characters' });
}

/** Any JSON object whose strings contain no NUL characters (stored as jsonb). */
export const jsonObject = z
  .record(z.string(), z.unknown())
  .refine((v) => !NUL.test(JSON.stringify(v)), { message: 'must not contain NUL characters' })
  .meta({ description: 'A free-form JSON object' });

export const uuid = z.uuid();

/** PostgreSQL `integer` range: larger numbers are a 422, not a driver error. */
export const int32 = z.int().min(-2147483648).max(2147483647);
export const positiveInt32 = z.int().min(1).max(2147483647);

/**
 * An integer in a query string or path: decimal digits only (no sign, exponent or blanks), parsed to a
 * number in `[min, max]`. Documented as the integer it stands for.
 */
export function wireInt(min: number, max: number, message = 'must be an integer') {
  return z
    .string()
    .regex(/^\d{1,10}$/, { message })
    .transform(Number)
    .pipe(z.int().min(min).max(max))
    .meta({
      override: ({ jsonSchema }) => {
        for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Record<string, unknown>)[key];
        Object.assign(jsonSchema, { type: 'integer', minimum: min, maximum: max });
      },
    });
}
