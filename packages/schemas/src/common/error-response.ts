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
