import { z } from 'zod';

/** The error envelope: every non-2xx response has this shape. Branch on `error_code`, never `detail`. */
export const ErrorResponseSchema = z
  .object({
    error_code: z.string(),
    detail: z.string(),
    request_id: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/**
 * What one part of a response came to when it failed, the rest being answered: the error envelope's
 * fields and the status the part alone would have answered (an item of a bulk call, a stored version
 * that cannot be read whole).
 */
export const ItemErrorSchema = z
  .object({
    error_code: z.string(),
    status: z.int(),
    detail: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'ItemError' });
export type ItemError = z.infer<typeof ItemErrorSchema>;
