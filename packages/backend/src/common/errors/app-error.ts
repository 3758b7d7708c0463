import { ERROR_CATALOGUE, type ErrorCode } from '@aide/schemas';

/**
 * The one error type services throw: a catalogue code, an optional detail overriding the catalogue's
 * text, and optional machine-readable details. The HTTP status comes from the catalogue.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    detail?: string,
    readonly details?: Record<string, unknown>,
    /** Extra response headers, e.g. `Retry-After` or `Allow`. */
    readonly headers?: Record<string, string>,
  ) {
    super(detail ?? ERROR_CATALOGUE[code].detail);
    this.status = ERROR_CATALOGUE[code].status;
  }
}

/** A 422 VALIDATION_ERROR with zod-style issues; a custom issue's `params` (e.g. a limit) are kept. */
export function validationError(
  issues: readonly {
    path: readonly PropertyKey[];
    message: string;
    code?: string;
    params?: Record<string, unknown>;
  }[],
  detail = 'The request is invalid.',
): AppError {
  return new AppError('VALIDATION_ERROR', detail, {
    issues: issues.map((i) => ({
      path: i.path.map(String),
      message: i.message,
      code: i.code ?? 'custom',
      ...(i.params === undefined ? {} : { params: i.params }),
    })),
  });
}
