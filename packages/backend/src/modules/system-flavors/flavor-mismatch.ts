import { AppError } from '../../common/errors/app-error.js';

/**
 * 422 TYPE_INSTANCE_FLAVOR_MISMATCH, naming the data type and both flavors: a type tree must be of one
 * flavor, its system's (ADR 0010). Raised by type instances, data types and systems.
 */
export function flavorMismatch(detail: string, details: Record<string, unknown>): AppError {
  return new AppError('TYPE_INSTANCE_FLAVOR_MISMATCH', detail, details);
}
