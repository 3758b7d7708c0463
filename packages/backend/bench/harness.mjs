// What the in-process bench suites (scale, search) share: rebuilding what they import from dist/,
// and clean-ups that run on success, on error and on Ctrl-C.
import { spawnSync } from 'node:child_process';

/** Rebuilds @aide/schemas and @aide/backend (tsc), so that dist/ is the code being measured. */
export function buildBackend(repo) {
  for (const pkg of ['@aide/schemas', '@aide/backend']) {
    const r = spawnSync('pnpm', ['--filter', pkg, 'build'], {
      cwd: repo,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`pnpm --filter ${pkg} build failed`);
  }
}

/**
 * A stack of clean-ups, run last-in first-out by `cleanup()` and on SIGINT/SIGTERM (then exit 130).
 * `cleanups` is the stack itself: push functions returning promises.
 */
export function cleanupStack(log) {
  const cleanups = [];
  const cleanup = async () => {
    while (cleanups.length > 0)
      await cleanups
        .pop()()
        .catch((e) => log(`clean-up failed: ${e.message}`));
  };
  const onSignal = () => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return { cleanups, cleanup };
}
