import { AppError } from '../errors/app-error.js';

/** Reads `If-Match: "3"` (or `W/"3"`) as a row_version. */
export function parseIfMatch(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  const match = /^\s*(?:W\/)?"?(\d{1,10})"?\s*$/.exec(value);
  const version = match ? Number(match[1]) : NaN;
  if (!Number.isInteger(version) || version < 1 || version > 2147483647) {
    throw new AppError('VALIDATION_ERROR', 'If-Match must carry a row_version, e.g. "3".');
  }
  return version;
}
