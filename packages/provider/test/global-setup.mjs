// @aide/sdk's global setup (../../sdk/test/global-setup.mjs) starts the real backend and packs
// @aide/schemas and @aide/sdk; this package's tarball joins them (AIDE_SDK_TEST_TARBALLS), for
// test/package.test.ts, which installs all three outside the workspace.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sdkGlobalSetup from '../../sdk/test/global-setup.mjs';
import globalTeardown from './global-teardown.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

export default async function globalSetup() {
  await sdkGlobalSetup();
  try {
    // After the SDK's pack (which rebuilds its dist/), before any test file runs.
    execFileSync('pnpm', ['pack', '--pack-destination', process.env.AIDE_SDK_TEST_TARBALLS], {
      cwd: packageDir,
      stdio: 'pipe',
    });
  } catch (error) {
    // Jest skips the teardown when the setup fails: stop what was started.
    await globalTeardown();
    throw error;
  }
}
