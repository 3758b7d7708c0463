/** Options every call accepts, overriding the client's defaults for that call. */
export interface RequestOptions {
  /** Milliseconds to wait for each attempt's complete response (default: the client's `timeoutMs`). */
  timeoutMs?: number | undefined;
  /** Aborts the call, including a pending retry delay; the call rejects with `AideUserAbortError`. */
  signal?: AbortSignal | undefined;
  /**
   * Sent as `Idempotency-Key`. With it, a POST or PATCH is retried like a GET (on connection errors,
   * timeouts, 429 and 503), since the server can recognise the repeat. Without it they are never retried.
   */
  idempotencyKey?: string | undefined;
  /** Retries after the first attempt (default: the client's `maxRetries`). `0` disables retrying. */
  maxRetries?: number | undefined;
  /** Sent as `X-Request-ID` (default: a new UUID per call, the same for its retries). */
  requestId?: string | undefined;
  /** Extra headers for this call. */
  headers?: Readonly<Record<string, string>> | undefined;
}
