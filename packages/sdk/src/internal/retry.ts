import { retryAfterSeconds } from '../core/errors.js';

/** First backoff ceiling; doubles per attempt up to {@link MAX_BACKOFF_MS}. */
export const INITIAL_BACKOFF_MS = 500;
export const MAX_BACKOFF_MS = 8_000;
/**
 * A `Retry-After` longer than this is not waited for: the error surfaces at once (with `retryAfter`
 * on a `RateLimitError`) instead of blocking the caller for minutes.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses that mean "not processed, try again": throttled, unavailable, or a gateway in between failed. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * Methods safe to send twice. PATCH is not on the list: a partial update may not be repeatable, and
 * POST creates. Both are retried only when the caller gives an idempotency key.
 */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method);
}

/** Exponential backoff with full jitter: uniform in [0, min(max, initial * 2^attempt)). */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/** The server's `Retry-After` hint in milliseconds (delta-seconds or HTTP date), if any. */
export function retryAfterMs(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const seconds = retryAfterSeconds(header);
  return seconds === undefined ? undefined : Math.ceil(seconds * 1000);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
