import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Type-checks `files` of `dir` as a strict consumer would (nodenext, strict), with the workspace's
 * TypeScript and @types/node; writes `dir/tsconfig.json`. Returns tsc's report: empty when clean.
 */
export async function typecheck(dir: string, files: readonly string[]): Promise<string> {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        lib: ['ES2023'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(packageDir, 'node_modules', '@types')],
      },
      files,
    }),
  );
  const tsc = createRequire(join(packageDir, 'package.json')).resolve('typescript/bin/tsc');
  const result = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], {
    timeout: 120_000,
  }).catch((error: { stdout?: string }) => error);
  return result.stdout ?? '';
}
