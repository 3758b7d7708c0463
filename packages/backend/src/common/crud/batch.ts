import type { ErrorCode } from '@aide/schemas';
import { AppError } from '../errors/app-error.js';

/**
 * Two items of one batch with the same business key: refused before any write, naming both
 * positions (the unique index would refuse it too, without saying which items collide).
 */
export function assertUniqueInBatch<T>(items: readonly T[], key: (item: T) => string, code: ErrorCode): void {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const k = key(item);
    const first = seen.get(k);
    if (first !== undefined) {
      throw new AppError(code, `Items ${first} and ${index} of the batch have the same key.`, {
        indexes: [first, index],
        key: k,
      });
    }
    seen.set(k, index);
  });
}
