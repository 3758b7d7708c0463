import { AppError } from '../errors/app-error.js';

/**
 * Splits an update body into the changes and the expected row_version, which comes from the body
 * or from `If-Match`. Both present and different is a conflict of the client with itself: 422.
 */
export function splitUpdate<T extends { row_version?: number | undefined }>(
  input: T,
  ifMatch: number | undefined,
): { changes: Omit<T, 'row_version'>; version: number } {
  const { row_version, ...changes } = input;
  if (row_version !== undefined && ifMatch !== undefined && row_version !== ifMatch) {
    throw new AppError('VALIDATION_ERROR', 'row_version and If-Match disagree.');
  }
  const version = row_version ?? ifMatch;
  if (version === undefined) throw new AppError('PRECONDITION_REQUIRED');
  return { changes, version };
}
