/** Process exit codes of `aide-crawler` (DESIGN §5). */
export const ExitCode = {
  OK: 0,
  /** A runtime failure; the message goes to stderr. */
  FAILURE: 1,
  /** Bad flags, arguments or command. */
  USAGE: 2,
  /** `--check` found differences between the database and the registry. */
  DIFFERENCES: 3,
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
