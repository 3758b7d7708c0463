// The packed tarballs test/global-setup.mjs made (@aide/schemas, @aide/sdk; @aide/provider's and
// @aide/crawler's setups add their own: test/pack.mjs), and their install into a project outside the
// workspace, as another repository would.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The path of the tarball of `@aide/<name>`. */
export function tarball(name: 'schemas' | 'sdk' | 'provider' | 'crawler'): string {
  const dir = process.env['AIDE_SDK_TEST_TARBALLS'];
  if (!dir) throw new Error('AIDE_SDK_TEST_TARBALLS is not set: run the tests through jest (global setup)');
  const file = readdirSync(dir).find((f) => f.startsWith(`aide-${name}-`) && f.endsWith('.tgz'));
  if (!file) throw new Error(`no aide-${name} tarball in ${dir}`);
  return join(dir, file);
}

/** Installs the tarballs of `names` with npm into `project` (a folder with a package.json). */
export async function installTarballs(
  project: string,
  names: readonly Parameters<typeof tarball>[0][],
): Promise<void> {
  // Our packages come from the tarballs only: the @aide scope points at a dead registry, so a lookup
  // of an @aide package there (one that needs something unpublished) fails the install. npm still asks
  // it about the @aide dependencies the tarballs satisfy; without retries that costs nothing (with
  // npm's default backoff it cost 2 min 20 s per install).
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--ignore-scripts',
      '--fetch-retries=0',
      '--@aide:registry=http://127.0.0.1:9/',
      ...names.map(tarball),
    ],
    { cwd: project, timeout: 240_000 },
  );
}
