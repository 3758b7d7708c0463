import type { ItemError } from '@aide/schemas';
import type { Logger } from '@nestjs/common';
import { toAppError } from '../errors/error-response.js';

export type ItemOutcome<T, R> =
  | { index: number; item: T; value: R; error: null }
  | { index: number; item: T; value: null; error: ItemError };

/**
 * Runs `work` for each item in turn, each in the transaction `work` opens: an item that fails is
 * reported with its catalogue error (what a single call would have answered) and the others still run.
 * Unexpected failures (5xx) are logged, since the response carries no internals.
 */
export async function runPerItem<T, R>(
  items: readonly T[],
  work: (item: T, index: number) => Promise<R>,
  logger: Logger,
): Promise<ItemOutcome<T, R>[]> {
  const outcomes: ItemOutcome<T, R>[] = [];
  for (const [index, item] of items.entries()) {
    try {
      outcomes.push({ index, item, value: await work(item, index), error: null });
    } catch (error) {
      const e = toAppError(error);
      if (e.status >= 500) logger.error(`item ${index} failed: ${String(error)}`);
      outcomes.push({
        index,
        item,
        value: null,
        error: {
          error_code: e.code,
          status: e.status,
          detail: e.message,
          ...(e.details ? { details: e.details } : {}),
        },
      });
    }
  }
  return outcomes;
}
