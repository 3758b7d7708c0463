// @aide/sdk's global setup (../../sdk/test/global-setup.mjs) starts the real backend and packs
// @aide/schemas and @aide/sdk; this package's tarball joins them (AIDE_SDK_TEST_TARBALLS), for
// test/package.test.ts, which installs all three outside the workspace.
import sdkGlobalSetup from '../../sdk/test/global-setup.mjs';
import { packWorkspacePackages } from '../../sdk/test/pack.mjs';
import globalTeardown from './global-teardown.mjs';

export default async function globalSetup() {
  await sdkGlobalSetup();
  try {
    // After the SDK's pack (which rebuilds its dist/), before any test file runs.
    packWorkspacePackages(['provider'], process.env.AIDE_SDK_TEST_TARBALLS);
  } catch (error) {
    // Jest skips the teardown when the setup fails: stop what was started.
    await globalTeardown();
    throw error;
  }
}
