#!/usr/bin/env node
// `pnpm test`: runs every workspace package's tests, one package at a time in dependency order, and keeps
// going when one fails, so that one failing package does not hide the others' results. Prints each
// package's result at the end and exits 1 if any failed. Jest's own output (its `Tests:` lines, which
// .ci/run sums) passes through unchanged.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const PACKAGES_DIR = join(ROOT, 'packages');

/** The workspace packages with a `test` script, each after the workspace packages it depends on. */
function packagesInOrder() {
  const packages = new Map();
  for (const entry of readdirSync(PACKAGES_DIR, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(join(PACKAGES_DIR, entry.name, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    const deps = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    packages.set(manifest.name, { name: manifest.name, deps, hasTest: Boolean(manifest.scripts?.test) });
  }
  const ordered = [];
  const visit = (name, path = []) => {
    const pkg = packages.get(name);
    if (!pkg || ordered.includes(pkg) || path.includes(name)) return;
    for (const dep of [...pkg.deps].sort()) visit(dep, [...path, name]);
    ordered.push(pkg);
  };
  for (const name of [...packages.keys()].sort()) visit(name);
  return ordered.filter((p) => p.hasTest).map((p) => p.name);
}

function run(args) {
  const started = Date.now();
  const result = spawnSync('pnpm', args, { cwd: ROOT, stdio: 'inherit' });
  return { code: result.status ?? 1, seconds: Math.round((Date.now() - started) / 1000) };
}

const results = [];
const prepare = run(['--filter', '@aide/schemas', 'build']);
if (prepare.code !== 0) results.push({ name: 'build @aide/schemas', ...prepare });
else {
  for (const name of packagesInOrder()) {
    process.stdout.write(`\n==> ${name}: pnpm test\n`);
    results.push({ name, ...run(['--filter', name, 'test']) });
  }
}

const failed = results.filter((r) => r.code !== 0);
process.stdout.write('\n==> test results by package\n');
for (const r of results) {
  process.stdout.write(`  ${r.code === 0 ? 'passed' : 'FAILED'}  ${r.name} (${r.seconds} s)\n`);
}
process.stdout.write(
  failed.length === 0
    ? `==> all ${results.length} packages passed\n`
    : `==> ${failed.length} of ${results.length} packages failed: ${failed.map((r) => r.name).join(', ')}\n`,
);
process.exit(failed.length === 0 ? 0 : 1);
