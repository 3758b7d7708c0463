import type { ErrorResponse, ItemError } from '@aide/schemas';
import { HttpException } from '@nestjs/common';
import { AppError } from './app-error.js';
import { mapDatabaseError } from './db-error.js';

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message?: string;
}

/** Errors raised by Fastify before a handler runs (body parsing, limits), keyed by Fastify's code. */
function fromFastify(error: FastifyLikeError): AppError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('VALIDATION_ERROR', 'The JSON body is empty.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('VALIDATION_ERROR', 'The body is not valid JSON.');
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('VALIDATION_ERROR', 'The path is invalid.');
    default:
      break;
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON') {
    return new AppError('VALIDATION_ERROR', 'The body is not valid JSON.');
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    if (error.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE');
    if (error.statusCode === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE');
    // Prototype-poisoned JSON and other malformed requests.
    return new AppError('VALIDATION_ERROR', error.message ?? undefined);
  }
  return undefined;
}

function fromHttpException(error: HttpException): AppError {
  const status = error.getStatus();
  switch (status) {
    case 401:
      return new AppError('UNAUTHORIZED');
    case 403:
      return new AppError('FORBIDDEN');
    case 404:
      return new AppError('NOT_FOUND');
    case 405:
      return new AppError('METHOD_NOT_ALLOWED');
    case 413:
      return new AppError('PAYLOAD_TOO_LARGE');
    case 415:
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
    case 429:
      return new AppError('TOO_MANY_REQUESTS');
    default:
      return status < 500
        ? new AppError('VALIDATION_ERROR', error.message)
        : new AppError('INTERNAL_SERVER_ERROR');
  }
}

/** Any thrown value → the AppError answered to the client. Unknown errors become a 500 with no internals. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof HttpException) {
    // Fastify's own 4xx errors (body parsing, limits) arrive wrapped by Nest's adapter.
    const cause = error.cause as FastifyLikeError | undefined;
    return (cause && typeof cause === 'object' && fromFastify(cause)) || fromHttpException(error);
  }
  const db = mapDatabaseError(error);
  if (db) return db;
  if (error && typeof error === 'object') {
    const fastify = fromFastify(error);
    if (fastify) return fastify;
  }
  return new AppError('INTERNAL_SERVER_ERROR');
}

/** An error answered as part of a response (an item of a bulk call, a version that cannot be read). */
export function toItemError(error: AppError): ItemError {
  return {
    error_code: error.code,
    status: error.status,
    detail: error.message,
    ...(error.details ? { details: error.details } : {}),
  };
}

export function toEnvelope(error: AppError, requestId: string): ErrorResponse {
  const body: ErrorResponse = { error_code: error.code, detail: error.message, request_id: requestId };
  if (error.details) body.details = error.details;
  return body;
}
