import type { ErrorCode } from '@aide/schemas';
import { QueryFailedError } from 'typeorm';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../../database/connection-errors.js';
import { AppError, validationError } from './app-error.js';

/**
 * Constraint name → business code. Each module registers the constraints of its tables, so a
 * race that slips past a service's pre-check still answers with the right code.
 */
const constraintCodes = new Map<string, ErrorCode>();

export function registerConstraintCodes(codes: Record<string, ErrorCode>): void {
  for (const [name, code] of Object.entries(codes)) constraintCodes.set(name, code);
}

/** The registered constraint codes (checked against the migrated database by a test). */
export function registeredConstraintCodes(): ReadonlyMap<string, ErrorCode> {
  return constraintCodes;
}

interface PgError {
  code?: string;
  constraint?: string;
  column?: string;
  detail?: string;
}

function driverError(error: unknown): PgError | undefined {
  if (error instanceof QueryFailedError) return error.driverError as PgError;
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    return error as PgError;
  }
  return undefined;
}

/**
 * Maps a PostgreSQL error to an AppError by SQLSTATE and constraint name (a lost or refused connection
 * is a 503 with Retry-After); returns undefined for errors that are not the client's fault (those stay 500).
 */
export function mapDatabaseError(error: unknown): AppError | undefined {
  if (isDatabaseUnavailable(error)) {
    return new AppError('DATABASE_UNAVAILABLE', undefined, undefined, {
      'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
    });
  }
  const pg = driverError(error);
  if (!pg?.code) return undefined;
  const mapped = pg.constraint ? constraintCodes.get(pg.constraint) : undefined;
  switch (pg.code) {
    case '23505': // unique_violation
      return new AppError(
        mapped ?? 'VALIDATION_ERROR',
        undefined,
        pg.constraint ? { constraint: pg.constraint } : undefined,
      );
    case '23503': {
      // foreign_key_violation: children still point at a deleted row, or a written row names a missing parent.
      const referenced = pg.detail?.includes('is still referenced') ?? false;
      const code = referenced ? 'HAS_DEPENDENT_ENTITIES' : (mapped ?? 'VALIDATION_ERROR');
      return new AppError(code, undefined, pg.constraint ? { constraint: pg.constraint } : undefined);
    }
    case '23502': // not_null_violation
      return validationError([
        { path: [pg.column ?? 'body'], message: 'must not be null', code: 'not_null' },
      ]);
    case '23514': // check_violation
      return validationError([
        { path: [pg.constraint ?? 'body'], message: 'violates a check constraint', code: 'check' },
      ]);
    case '22001': // string_data_right_truncation
    case '22003': // numeric_value_out_of_range
    case '22021': // character_not_in_repertoire (NUL bytes)
    case '22P02': // invalid_text_representation
    case '22P05': // untranslatable_character (\u0000 in jsonb)
    case '22007': // invalid_datetime_format
    case '22008': // datetime_field_overflow
    case '54000': // program_limit_exceeded (e.g. index row too large)
      return validationError([
        { path: ['body'], message: 'a value is out of range or not representable', code: pg.code },
      ]);
    case '40001': // serialization_failure
    case '40P01': // deadlock_detected
      return new AppError('VERSION_CONFLICT', 'A concurrent change conflicted with this one. Please retry.');
    default:
      return undefined;
  }
}
