import { readFileSync } from 'node:fs';
import { Command, CommanderError, type OutputConfiguration } from 'commander';
import { ExitCode } from './errors.js';

/** The package version, read from package.json next to src/ and dist/. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * The `aide-crawler` command line. It never exits the process: commander's exits become thrown
 * CommanderErrors (exit code 0 for --help/--version, ExitCode.USAGE for every usage error), which the
 * bin entry point turns into the process exit code.
 */
export function createProgram(output?: OutputConfiguration): Command {
  const program = new Command('aide-crawler')
    .description('Introspects a database, diffs it against the AIDE Metastore registry and reports.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .exitOverride((error) => {
      throw error.exitCode === 0 ? error : new CommanderError(ExitCode.USAGE, error.code, error.message);
    });
  if (output) program.configureOutput(output);
  // Unknown operands are reported as an unknown command (commander would say "too many arguments"
  // while no command is registered yet).
  program.on('command:*', (operands: string[]) => {
    program.error(`error: unknown command '${operands[0]}'`, { code: 'commander.unknownCommand' });
  });
  return program;
}
