// `pnpm pack` of workspace packages into one folder, as they would be published (each prepack is a
// clean build of its dist/, and workspace: ranges become versions). Used by the global setups of
// @aide/sdk, @aide/provider and @aide/crawler, before any test file runs (packing rebuilds dist/); the
// folder is handed to the tests as AIDE_SDK_TEST_TARBALLS (test/helpers/tarballs.ts).
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGES = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Packs `packages/<name>` for each name into `destination`, and points AIDE_SDK_TEST_TARBALLS at it. */
export function packWorkspacePackages(names, destination) {
  for (const name of names) {
    execFileSync('pnpm', ['pack', '--pack-destination', destination], {
      cwd: join(PACKAGES, name),
      stdio: 'pipe',
    });
  }
  process.env.AIDE_SDK_TEST_TARBALLS = destination;
}
