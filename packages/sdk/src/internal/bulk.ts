import { MAX_BATCH_SIZE, type RouteDef, type RouteResponseBody } from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import type { ApiClient } from './api.js';
import { type BatchChunk, chunkFailure, planChunks } from './batch.js';

/** Options of the bulk calls (`bulkCreate`, `bulkPublish`): chunking as `createMany`'s. */
export interface BulkOptions<Result> extends RequestOptions {
  /** Items per request, 1..500 (default 500, the server's maximum). */
  chunkSize?: number | undefined;
  /** Largest request body in bytes (default: 95% of the client's `bodyLimitBytes`). */
  maxChunkBytes?: number | undefined;
  /** Called after each request with its result (item indexes already positions in the input). */
  onChunk?: ((result: Result, chunkIndex: number) => void) | undefined;
}

interface BulkResult {
  items: { index: number }[];
  summary: Record<string, number>;
}

/**
 * Sends `items` to a per-item bulk route in chunks (at most 500 items and `maxChunkBytes` of JSON
 * each) and merges the answers: item indexes become positions in `items`, summaries are added up. A
 * request that fails as a whole (a network error after retries, a 413) throws `AideBatchError` naming
 * the chunk, with the item results of the chunks before it in `created`.
 */
export async function sendInChunks<
  Route extends RouteDef,
  R extends BulkResult = RouteResponseBody<Route> & BulkResult,
>(
  api: ApiClient,
  route: Route,
  items: readonly unknown[],
  zero: R['summary'],
  options: BulkOptions<R> = {},
): Promise<R> {
  const {
    chunkSize = MAX_BATCH_SIZE,
    maxChunkBytes = Math.floor(api.bodyLimitBytes * 0.95),
    onChunk,
    ...requestOptions
  } = options;
  if (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > MAX_BATCH_SIZE) {
    throw new RangeError(`chunkSize must be an integer from 1 to ${MAX_BATCH_SIZE}, got ${chunkSize}`);
  }
  const key = requestOptions.idempotencyKey;
  const merged: BulkResult = { items: [], summary: { ...zero } };
  const committed: BatchChunk[] = [];
  for (const chunk of planChunks(items, chunkSize, maxChunkBytes)) {
    let result: R;
    try {
      result = (await api.invoke(route, {
        body: { items: items.slice(chunk.start, chunk.end) },
        options: {
          ...requestOptions,
          idempotencyKey: key === undefined ? undefined : `${key}:${chunk.index}`,
        },
      })) as R;
    } catch (error) {
      throw chunkFailure(error, chunk, committed, merged.items);
    }
    for (const item of result.items) item.index += chunk.start;
    merged.items.push(...result.items);
    for (const [name, count] of Object.entries(result.summary)) {
      merged.summary[name] = (merged.summary[name] ?? 0) + count;
    }
    committed.push(chunk);
    onChunk?.(result, chunk.index);
  }
  return merged as R;
}
