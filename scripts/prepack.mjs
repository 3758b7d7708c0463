#!/usr/bin/env node
// `prepack` of the published packages (@aide/schemas, @aide/sdk, @aide/provider, @aide/crawler), run by `pnpm pack` /
// `pnpm publish` in the package's directory: a clean build (no file of a deleted source left in dist/)
// and the repository's LICENSE next to package.json. `postpack` removes that copy again
// (`node prepack.mjs --post`).
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const packageDir = process.cwd();

if (process.argv.includes('--post')) {
  rmSync(join(packageDir, 'LICENSE'), { force: true });
} else {
  rmSync(join(packageDir, 'dist'), { recursive: true, force: true });
  const tsc = createRequire(join(packageDir, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: packageDir, stdio: 'inherit' });
  copyFileSync(join(ROOT, 'LICENSE'), join(packageDir, 'LICENSE'));
}
