import type { z } from 'zod';
import { AideContractError } from '../core/errors.js';
import type { TransportResponse } from './transport.js';

/**
 * Checks a 2xx body against its `@aide/schemas` schema and returns the parsed value. With validation
 * off the body is returned as received (typed, unchecked).
 */
export function parseResponse<T extends z.ZodType>(
  schema: T,
  response: TransportResponse,
  validate: boolean,
  expected?: string,
): z.output<T> {
  if (!validate) return response.body as z.output<T>;
  const result = schema.safeParse(response.body);
  if (result.success) return result.data;
  throw new AideContractError({
    route: response.route,
    status: response.status,
    requestId: response.requestId,
    issues: result.error.issues,
    expected: expected ?? schemaName(schema),
  });
}

function schemaName(schema: z.ZodType): string {
  const meta = schema.meta() as { id?: unknown } | undefined;
  return typeof meta?.id === 'string' ? meta.id : 'the declared schema';
}
