// What the AIDE command lines (`aide-provider` here, `aide-crawler` in @aide/crawler) share: a
// commander program that never exits the process (help and version exit 0, every usage error exits
// 2), the registry connection options and their environment variables, and `runCommandLine`, which
// turns a run into an exit code. Exported as `@aide/sdk/cli`; it depends on commander only.
import { Command, CommanderError } from 'commander';

/** Where a program writes and what it reads from its environment (the process, or a test's capture). */
export interface CommandLineIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
}

/** The exit code of every usage error. */
export const USAGE_EXIT_CODE = 2;

export const METASTORE_URL_ENV = 'AIDE_METASTORE_URL';
export const METASTORE_USER_ENV = 'AIDE_METASTORE_USER';
export const METASTORE_PASSWORD_ENV = 'AIDE_METASTORE_PASSWORD';
export const METASTORE_TOKEN_ENV = 'AIDE_METASTORE_TOKEN';
export const METASTORE_API_KEY_ENV = 'AIDE_METASTORE_API_KEY';
export const DEFAULT_METASTORE_URL = 'http://localhost:8001';

/** The registry options a command's flags give (the environment fills the rest). */
export interface MetastoreOptions {
  metastoreUrl?: string;
  metastoreUser?: string;
  metastorePassword?: string;
}

/**
 * A program as the AIDE command lines are made: `-V/--version`, `-h/--help`, a `help` command, the
 * usage hint after an error, output to `io`, and commander's exits thrown as CommanderErrors (exit
 * code 0 for help and version, USAGE_EXIT_CODE for every usage error).
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
  return command
    .option(
      '--metastore-url <url>',
      `registry base URL (env ${METASTORE_URL_ENV}; default ${DEFAULT_METASTORE_URL})`,
    )
    .option('--metastore-user <email>', `registry login (env ${METASTORE_USER_ENV})`)
    .option('--metastore-password <password>', `registry password (env ${METASTORE_PASSWORD_ENV})`);
}

/**
 * Runs the program `create` builds on `argv` (without the node and script paths) and resolves to the
 * exit code: the one a command reported through `onExitCode` (0 when none), a CommanderError's (its
 * message is already written, unless `reportCommanderError` says to write it), or what `onError`
 * makes of any other failure.
 */
export async function runCommandLine(
  create: (onExitCode: (code: number) => void) => Command,
  argv: readonly string[],
  onError: (error: unknown) => number,
  reportCommanderError: (error: CommanderError) => boolean = () => false,
  io?: Pick<CommandLineIo, 'stderr'>,
): Promise<number> {
  let code = 0;
  try {
    await create((c) => (code = c)).parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (io && error.exitCode !== 0 && reportCommanderError(error)) io.stderr(`error: ${error.message}\n`);
      return error.exitCode;
    }
    return onError(error);
  }
}
