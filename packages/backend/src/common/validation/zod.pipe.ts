import { type PipeTransform } from '@nestjs/common';
import { listQuerySchema, type ListSpec, MAX_BATCH_SIZE } from '@aide/schemas';
import { z } from 'zod';
import { AppError, validationError } from '../errors/app-error.js';

/** Validates a body, query or parameter with a schema of `@aide/schemas`; failures are 422 with the zod issues. */
export class ZodPipe<T extends z.ZodType> implements PipeTransform<unknown, z.output<T>> {
  constructor(
    private readonly schema: T,
    private readonly what = 'request',
  ) {}

  // Bodies arrive here already bounded in depth (see common/http/json-body.ts), so the recursive walks
  // of zod and TypeORM cannot overflow the stack.
  transform(value: unknown): z.output<T> {
    const result = this.schema.safeParse(value);
    if (result.success) return result.data;
    throw validationError(result.error.issues, `The ${this.what} is invalid.`);
  }
}

export function body<T extends z.ZodType>(schema: T): ZodPipe<T> {
  return new ZodPipe(schema, 'request body');
}

/**
 * `{items: [...]}` batch bodies: more than MAX_BATCH_SIZE items is BATCH_TOO_LARGE (the code the
 * OpenAPI document promises), decided before the items themselves are validated.
 */
export class BatchBodyPipe<T extends z.ZodType> implements PipeTransform<unknown, z.output<T>> {
  private readonly inner: ZodPipe<T>;

  constructor(schema: T) {
    this.inner = body(schema);
  }

  transform(value: unknown): z.output<T> {
    const items = value && typeof value === 'object' ? (value as { items?: unknown }).items : undefined;
    if (Array.isArray(items) && items.length > MAX_BATCH_SIZE) {
      throw new AppError(
        'BATCH_TOO_LARGE',
        `Batch too large: ${items.length} items; max is ${MAX_BATCH_SIZE}.`,
        {
          count: items.length,
          max: MAX_BATCH_SIZE,
        },
      );
    }
    return this.inner.transform(value);
  }
}

const listPipes = new WeakMap<ListSpec, ZodPipe<z.ZodType>>();

/** The list-query pipe of a collection (page, size, sort, filters; unknown keys rejected). */
export function listQuery(spec: ListSpec): ZodPipe<z.ZodType> {
  let pipe = listPipes.get(spec);
  if (!pipe) {
    pipe = new ZodPipe(listQuerySchema(spec), 'query string');
    listPipes.set(spec, pipe);
  }
  return pipe;
}

const UUID = z.uuid();

/** Path `:id` parameters. */
export class UuidPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (UUID.safeParse(value).success) return value.toLowerCase();
    throw validationError(
      [{ path: ['id'], message: 'must be a UUID', code: 'invalid_format' }],
      'The path is invalid.',
    );
  }
}

/** A route without a query string contract still refuses unknown query keys. */
export const noQuery = new ZodPipe(z.strictObject({}), 'query string');

/** Reads `If-Match: "3"` (or `W/"3"`) as a row_version. */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,10})"?\s*$/.exec(header);
  const version = match ? Number(match[1]) : NaN;
  if (!Number.isInteger(version) || version < 1 || version > 2147483647) {
    throw new AppError('VALIDATION_ERROR', 'If-Match must carry a row_version, e.g. "3".');
  }
  return version;
}
