#!/usr/bin/env node
// The UI's budget (issue 12, lowered by issue 28): under 200 KB of compressed JavaScript on first load. Sums the gzipped
// size of every .js file of dist/assets and fails the build when over budget.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET = 200 * 1024;
const assets = fileURLToPath(new URL('../dist/assets/', import.meta.url));
let total = 0;
for (const name of readdirSync(assets).filter((n) => n.endsWith('.js'))) {
  const size = gzipSync(readFileSync(join(assets, name)), { level: 9 }).length;
  total += size;
  process.stdout.write(`  ${name}: ${(size / 1024).toFixed(1)} KB gzipped\n`);
}
process.stdout.write(
  `web UI JavaScript: ${(total / 1024).toFixed(1)} KB gzipped (budget ${BUDGET / 1024} KB)\n`,
);
if (total > BUDGET) process.exit(1);
