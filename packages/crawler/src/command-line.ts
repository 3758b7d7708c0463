// `runCommandLine`: a run of `aide-crawler`'s commander program turned into an exit code. The program
// follows the AIDE command-line conventions of @aide/sdk/cli (`configureCommandLine`), as aide-provider's
// does; the crawler does not depend on the provider.
import { type Command, CommanderError } from 'commander';

/**
 * Runs the program `create` builds on `argv` (without the node and script paths) and resolves to the
 * exit code: the one a command reported through `onExitCode` (0 when none), a CommanderError's (its
 * message is already written), or what `onError` makes of any other failure.
 */
export async function runCommandLine(
  create: (onExitCode: (code: number) => void) => Command,
  argv: readonly string[],
  onError: (error: unknown) => number,
): Promise<number> {
  let code = 0;
  try {
    await create((c) => (code = c)).parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    return onError(error);
  }
}
