// The commander side of the AIDE command-line conventions for `aide-crawler` (@aide/sdk/cli holds the
// parser-free side: the registry flags, their environment variables, the usage exit code): a program
// that never exits the process (help and version exit 0, every usage error exits USAGE_EXIT_CODE), and
// `runCommandLine`, which turns a run into an exit code. aide-provider (@aide/provider) makes its
// program the same way; the crawler does not depend on it.
import { Command, CommanderError } from 'commander';
import { type CommandLineIo, METASTORE_OPTIONS, USAGE_EXIT_CODE } from '@aide/sdk/cli';

/**
 * `-V/--version`, `-h/--help`, a `help` command, the usage hint after an error, output to `io`, and
 * commander's exits thrown as CommanderErrors (exit code 0 for help and version, else USAGE_EXIT_CODE).
 */
export function commandLine(name: string, description: string, version: string, io: CommandLineIo): Command {
  return new Command(name)
    .description(description)
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .helpCommand('help [command]', 'show the help of a command')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride((error) => {
      throw error.exitCode === 0 ? error : new CommanderError(USAGE_EXIT_CODE, error.code, error.message);
    });
}

/** `--metastore-url`, `--metastore-user`, `--metastore-password` on a command. */
export function metastoreOptions(command: Command): Command {
  for (const { flags, description } of METASTORE_OPTIONS) command.option(flags, description);
  return command;
}

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
