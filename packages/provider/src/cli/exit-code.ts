import { type CommandLineIo, USAGE_EXIT_CODE } from '@aide/sdk/cli';

/**
 * Exit codes: 0 done (an import applied, or nothing to do), 1 failure (message on stderr), 2 usage
 * error, 3 the registry refused the import plan with problems (nothing written).
 */
export const ExitCode = { OK: 0, FAILURE: 1, USAGE: USAGE_EXIT_CODE, PROBLEMS: 3 } as const;

/** Where the program writes and what it reads from its environment (the process, or a test's capture). */
export type Io = CommandLineIo;
