#!/usr/bin/env node
// `pnpm bench <suite> [options]`: runs one benchmark suite (DESIGN §10). Each suite lives next to the
// package it measures and exports `run(argv) → exit code`.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const SUITES = {
  api: {
    file: 'packages/backend/bench/api.mjs',
    about: 'API GET-by-id vs a bare node:http + pg handler vs pgbench',
  },
  lineage: {
    file: 'packages/backend/bench/lineage.mjs',
    about: 'lineage graph (10,000 nodes, depth 5) and bulk compat (1,000 links), with query counts',
  },
  crawler: {
    file: 'packages/crawler/bench/crawler.mjs',
    about: 'crawler inspect, first crawl + apply and re-crawl of N tables vs pg_dump --schema-only',
  },
  cli: {
    file: 'packages/crawler/bench/cli.mjs',
    about: 'start-up of aide-crawler --version/--help and aide-provider --help vs a bare node -e 0',
  },
  sources: {
    file: 'packages/crawler/bench/sources.mjs',
    about: 'files source on 10,000 Parquet files × 200 columns, 500 partitions vs a bare footer loop',
  },
  search: {
    file: 'packages/backend/bench/search.mjs',
    about: 'search p50/p95 on 100,000 datasets and 2,000,000 fields vs one full-text index probe',
  },
  auth: {
    file: 'packages/backend/bench/auth.mjs',
    about: 'access-token verification: jose (as the API uses it) vs a bare HMAC check',
  },
  provider: {
    file: 'packages/backend/bench/provider.mjs',
    about:
      'AideMetadataProvider bulk load of N dataflows × 20 hints, cold and revalidated (304), with request counts',
  },
  openlineage: {
    file: 'packages/backend/bench/openlineage.mjs',
    about:
      'one OpenLineage event of 1,000 × 1,000 unknown and of 150 × 150 known datasets: time, body, /health/live',
  },
  translate: {
    file: 'packages/backend/bench/translate.mjs',
    about: 'translate a 500-column version into each flavor; compatibility check against 100 versions',
  },
  scale: {
    file: 'packages/backend/bench/scale.mjs',
    about: 'registry operations at 1,000 / 10,000 / 100,000 datasets: p50/p99, SQL statements, plans',
  },
};
const PLANNED = [];

function usage() {
  const lines = [
    'usage: pnpm bench <suite> [options]   (pnpm bench <suite> --help for its options)',
    '',
    'suites:',
  ];
  for (const [name, suite] of Object.entries(SUITES)) lines.push(`  ${name.padEnd(10)} ${suite.about}`);
  for (const name of PLANNED) lines.push(`  ${name.padEnd(10)} (not implemented yet)`);
  return lines.join('\n');
}

const [name, ...args] = process.argv.slice(2);
if (!name || name === '--help' || name === '-h' || name === 'help') {
  process.stdout.write(`${usage()}\n`);
  process.exit(name ? 0 : 2);
}
const suite = SUITES[name];
if (!suite) {
  const why = PLANNED.includes(name)
    ? `bench suite "${name}" is not implemented yet`
    : `unknown bench suite "${name}"`;
  process.stderr.write(`${why}\n\n${usage()}\n`);
  process.exit(2);
}
const { run } = await import(pathToFileURL(join(ROOT, suite.file)).href);
process.exit(await run(args));
