import { type CommandLineIo, USAGE_EXIT_CODE } from '@aide/sdk/cli';

/** Exit codes: 0 done, 1 failure (message on stderr), 2 usage error, 3 import left items unmapped. */
export const ExitCode = { OK: 0, FAILURE: 1, USAGE: USAGE_EXIT_CODE, UNMAPPED: 3 } as const;

/** Where the program writes and what it reads from its environment (the process, or a test's capture). */
export type Io = CommandLineIo;
