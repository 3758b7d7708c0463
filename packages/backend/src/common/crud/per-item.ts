import type { ItemError } from '@aide/schemas';
import type { Logger } from '@nestjs/common';
import { toAppError, toItemError } from '../errors/error-response.js';

export type ItemOutcome<T, R> =
  | { index: number; item: T; value: R; error: null }
  | { index: number; item: T; value: null; error: ItemError };

/** What one item came to, before it is reported. */
export type ItemResult<R> = { ok: true; value: R } | { ok: false; error: unknown };

/**
 * The outcome of one item: its value, or its failure as the catalogue error a single call would have
 * answered. Unexpected failures (5xx) are logged, since the response carries no internals.
 */
export function itemOutcome<T, R>(
  index: number,
  item: T,
  result: ItemResult<R>,
  logger: Logger,
): ItemOutcome<T, R> {
  if (result.ok) return { index, item, value: result.value, error: null };
  const e = toAppError(result.error);
  if (e.status >= 500) logger.error(`item ${index} failed: ${String(result.error)}`);
  return {
    index,
    item,
    value: null,
    error: toItemError(e),
  };
}

/**
 * Runs `work` for each item in turn, each in the transaction `work` opens: an item that fails is
 * reported with its catalogue error and the others still run.
 */
export async function runPerItem<T, R>(
  items: readonly T[],
  work: (item: T, index: number) => Promise<R>,
  logger: Logger,
): Promise<ItemOutcome<T, R>[]> {
  const outcomes: ItemOutcome<T, R>[] = [];
  for (const [index, item] of items.entries()) {
    try {
      outcomes.push(itemOutcome(index, item, { ok: true, value: await work(item, index) }, logger));
    } catch (error) {
      outcomes.push(itemOutcome<T, R>(index, item, { ok: false, error }, logger));
    }
  }
  return outcomes;
}
