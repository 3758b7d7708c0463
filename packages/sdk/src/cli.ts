// What the AIDE command lines (`aide-provider` in @aide/provider, `aide-crawler` in @aide/crawler) share,
// without depending on a command-line parser: the conventions of their commander programs (applied to
// a `Command` each passes in, typed here by shape), the registry connection flags as specs, their
// environment variables, the settings they resolve to, and the exit code of a usage error.
// Exported as `@aide/sdk/cli`; it imports no module at run time, so a command line's `--help` stays
// cheap.
import type { AideClientOptions } from './client.js';

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

/** A flag as a parser declares it: `flags` in commander's syntax, and its help line. */
export interface OptionSpec {
  readonly flags: string;
  readonly description: string;
}

/** `--metastore-url`, `--metastore-user`, `--metastore-password`: parsed into MetastoreOptions. */
export const METASTORE_OPTIONS: readonly OptionSpec[] = [
  {
    flags: '--metastore-url <url>',
    description: `registry base URL (env ${METASTORE_URL_ENV}; default ${DEFAULT_METASTORE_URL})`,
  },
  { flags: '--metastore-user <email>', description: `registry login (env ${METASTORE_USER_ENV})` },
  {
    flags: '--metastore-password <password>',
    description: `registry password (env ${METASTORE_PASSWORD_ENV})`,
  },
];

/** What {@link configureCommandLine} needs of a commander `Command`. */
export interface CommandLineProgram {
  description(text: string): unknown;
  version(version: string, flags: string, description: string): unknown;
  helpOption(flags: string, description: string): unknown;
  helpCommand(nameAndArgs: string, description: string): unknown;
  showHelpAfterError(message: string): unknown;
  configureOutput(output: { writeOut(text: string): void; writeErr(text: string): void }): unknown;
  exitOverride(handler: (error: Error & { exitCode: number }) => never): unknown;
}

/**
 * Gives `program` (a commander `Command`) the AIDE conventions: `-V/--version`, `-h/--help`, a `help`
 * command, the usage hint after an error, output to `io`, and no exit of the process: commander's exits
 * are thrown as its errors, with exit code 0 for help and version and USAGE_EXIT_CODE for every usage
 * error.
 */
export function configureCommandLine<P extends CommandLineProgram>(
  program: P,
  description: string,
  version: string,
  io: CommandLineIo,
): P {
  program.description(description);
  program.version(version, '-V, --version', 'print the version');
  program.helpOption('-h, --help', 'show this help');
  program.helpCommand('help [command]', 'show the help of a command');
  program.showHelpAfterError('(run with --help for usage)');
  program.configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  program.exitOverride((error) => {
    if (error.exitCode !== 0) error.exitCode = USAGE_EXIT_CODE;
    throw error;
  });
  return program;
}

/** Adds METASTORE_OPTIONS (`--metastore-url`, `--metastore-user`, `--metastore-password`) to a command. */
export function addMetastoreOptions<C extends { option(flags: string, description: string): unknown }>(
  command: C,
): C {
  for (const { flags, description } of METASTORE_OPTIONS) command.option(flags, description);
  return command;
}

/** The registry a command talks to and every credential it was given; an empty variable is unset. */
export interface MetastoreSettings {
  baseUrl: string;
  username?: string;
  password?: string;
  token?: string;
  apiKey?: string;
}

/** The flags, else the environment variables, else the default URL. */
export function metastoreSettings(options: MetastoreOptions, env: CommandLineIo['env']): MetastoreSettings {
  const given = (value: string | undefined) => (value ? value : undefined);
  const settings: MetastoreSettings = {
    baseUrl: given(options.metastoreUrl) ?? given(env[METASTORE_URL_ENV]) ?? DEFAULT_METASTORE_URL,
  };
  const username = given(options.metastoreUser) ?? given(env[METASTORE_USER_ENV]);
  const password = given(options.metastorePassword) ?? given(env[METASTORE_PASSWORD_ENV]);
  const token = given(env[METASTORE_TOKEN_ENV]);
  const apiKey = given(env[METASTORE_API_KEY_ENV]);
  if (username !== undefined) settings.username = username;
  if (password !== undefined) settings.password = password;
  if (token !== undefined) settings.token = token;
  if (apiKey !== undefined) settings.apiKey = apiKey;
  return settings;
}

/**
 * The client options of the settings: a user and password, else an API key or a token (sent as a
 * bearer token: the registry tells keys by their prefix); undefined when none is given.
 */
export function metastoreClientOptions(settings: MetastoreSettings): AideClientOptions | undefined {
  const { baseUrl, username, password } = settings;
  if (username !== undefined && password !== undefined) return { baseUrl, username, password };
  const bearer = settings.apiKey ?? settings.token;
  return bearer === undefined ? undefined : { baseUrl, token: bearer };
}
