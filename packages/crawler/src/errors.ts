/** Process exit codes of `aide-crawler` (DESIGN §5). */
export const ExitCode = {
  OK: 0,
  /** A runtime failure; the message goes to stderr. */
  FAILURE: 1,
  /** Bad flags, arguments or command. */
  USAGE: 2,
  /** `--check` found differences between the database and the registry. */
  DIFFERENCES: 3,
  /** `translate --strict`: the translation would lose something (listed on stderr); nothing written. */
  LOSSY: 3,
  /** Interrupted by SIGINT (128 + 2, the shell's convention). */
  SIGINT: 130,
  /** Interrupted by SIGTERM (128 + 15). */
  SIGTERM: 143,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An expected failure: its message is shown to the user as is (no stack) and it decides the exit code. */
export class CrawlerError extends Error {
  override name = 'CrawlerError';
  readonly exitCode: ExitCode;

  constructor(message: string, options: { exitCode?: ExitCode; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode ?? ExitCode.FAILURE;
  }
}

/** The signals that interrupt a command: the entry point turns them into an abort. */
export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/**
 * A command stopped by a signal: the reason its AbortSignal carries. Commands stop at the next step,
 * cancel the catalog query in flight, mark their crawl run failed with this message and return the
 * shell's exit code for the signal (130 for SIGINT, 143 for SIGTERM).
 */
export class InterruptedError extends CrawlerError {
  override name = 'InterruptedError';

  constructor(readonly signal: InterruptSignal) {
    super(`interrupted by ${signal}`, { exitCode: signal === 'SIGINT' ? ExitCode.SIGINT : ExitCode.SIGTERM });
  }
}

/** Throws the signal's reason (an InterruptedError) when it has fired. */
export function throwIfInterrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw interruption(signal);
}

/** The error an aborted signal stands for. */
export function interruption(signal: AbortSignal): CrawlerError {
  const reason: unknown = signal.reason;
  return reason instanceof CrawlerError ? reason : new CrawlerError('interrupted', { cause: reason });
}
