import type { ErrorCode } from '@aide/schemas';
import { DataCoolieError } from '@aide/schemas/datacoolie';
import { AppError } from '../../common/errors/app-error.js';

/**
 * Runs a DataCoolie model factory; a rule it enforces becomes `code` with DataCoolie's own message as
 * the detail (the text a pipeline would have failed with at start-up).
 */
export function underDataCoolieRules<T>(
  code: ErrorCode,
  build: () => T,
  details: Record<string, unknown> = {},
): T {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof DataCoolieError)) throw error;
    throw new AppError(code, error.message, { ...details, ...error.details, datacoolie_error: error.name });
  }
}
