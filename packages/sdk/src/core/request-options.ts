/** Options every call accepts, overriding the client's defaults for that call. */
export interface RequestOptions {
  /** Milliseconds to wait for each attempt's complete response (default: the client's `timeoutMs`). */
  timeoutMs?: number | undefined;
  /** Aborts the call, including a pending retry delay; the call rejects with `AideUserAbortError`. */
  signal?: AbortSignal | undefined;
  /**
   * Sent as `Idempotency-Key` (1 to 255 characters of `[A-Za-z0-9_.:-]`; a UUID will do). The server
   * stores the answer of a keyed POST and replays it when the same key comes again with the same body,
   * so a keyed POST or PATCH is retried like a GET (connection errors, timeouts, 429, 503). Without a
   * key they are never retried. Keys are per user and kept 24 hours.
   */
  idempotencyKey?: string | undefined;
  /** Retries after the first attempt (default: the client's `maxRetries`). `0` disables retrying. */
  maxRetries?: number | undefined;
  /** Sent as `X-Request-ID` (default: a new UUID per call, the same for its retries). */
  requestId?: string | undefined;
  /** Extra headers for this call. */
  headers?: Readonly<Record<string, string>> | undefined;
}
