/** Where a command writes and what it reads from its environment (the process, or a test's capture). */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  /** The stream behind `stderr`, for a progress bar when it is a terminal; absent in tests. */
  stderrStream?: NodeJS.WriteStream;
  /**
   * Aborted when the command must stop (the entry point aborts it on SIGINT/SIGTERM, with an
   * InterruptedError as the reason); absent when nothing can interrupt.
   */
  signal?: AbortSignal;
}

export const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  stderrStream: process.stderr,
};
