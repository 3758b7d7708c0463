// `pnpm bench cli`: how long the AIDE command lines take to start, against a bare `node -e 0` in the
// same run (issue 23 §6): `aide-crawler --version`, `aide-crawler --help` and, where it is built,
// `aide-provider --help`. Each is spawned R times, the commands taking turns within each round so a
// change of machine load touches them all alike; the median of each is compared with bare Node's.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..', '..');

/** Start-up allowed over a bare `node -e 0`, in milliseconds (issue 23 §6). */
export const TARGET_MS = 250;

const HELP = `usage: pnpm bench cli [--runs R] [--no-build]

  --runs R     spawns of each command; the median is reported (default 20, after 2 warm-up rounds)
  --no-build   use the existing dist/ of schemas, sdk, crawler (and provider, where it exists)

Times bare \`node -e 0\`, \`aide-crawler --version\`, \`aide-crawler --help\` and \`aide-provider --help\`
(packages/provider/dist/cli/bin.js, or packages/sdk/dist/cli/bin.js before the provider had its
own package; skipped when neither is built), each as a child process, and prints each one's median,
its difference from bare Node and PASS or FAIL against ${TARGET_MS} ms. Results go to
bench-results/cli.json.`;

/** Where `aide-provider` is built in this tree, if anywhere. */
function providerBin() {
  return [
    join(ROOT, 'packages', 'provider', 'dist', 'cli', 'bin.js'),
    join(ROOT, 'packages', 'sdk', 'dist', 'cli', 'bin.js'),
  ].find((file) => existsSync(file));
}

function commands() {
  const crawler = join(ROOT, 'packages', 'crawler', 'dist', 'bin.js');
  const list = [
    { name: 'node -e 0', args: ['-e', '0'] },
    { name: 'aide-crawler --version', args: [crawler, '--version'] },
    { name: 'aide-crawler --help', args: [crawler, '--help'] },
  ];
  const provider = providerBin();
  if (provider !== undefined) list.push({ name: 'aide-provider --help', args: [provider, '--help'] });
  return list;
}

/** Milliseconds from spawning `node args` to its exit; throws unless it exits 0 with some output. */
function timeOnce({ name, args }) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', env: process.env });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0 || (name !== 'node -e 0' && result.stdout.trim() === '')) {
    throw new Error(`${name} exited ${result.status}: ${result.stderr.trim()}`);
  }
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function packagesToBuild() {
  const names = ['schemas', 'sdk', 'crawler'];
  if (existsSync(join(ROOT, 'packages', 'provider', 'package.json'))) names.push('provider');
  return names;
}

export async function run(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string', default: '20' },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    process.stderr.write(`--runs must be an integer ≥ 1\n\n${HELP}\n`);
    return 2;
  }
  try {
    if (!values['no-build']) {
      for (const pkg of packagesToBuild()) {
        execFileSync('pnpm', ['--filter', `@aide/${pkg}`, 'build'], { cwd: ROOT, stdio: 'ignore' });
      }
    }
    const list = commands();
    const times = new Map(list.map((c) => [c.name, []]));
    for (let round = -2; round < runs; round++) {
      // Each round starts with another command, so none is always first after a pause.
      for (let i = 0; i < list.length; i++) {
        const command = list[(i + Math.max(round, 0)) % list.length];
        const ms = timeOnce(command);
        if (round >= 0) times.get(command.name).push(ms);
      }
    }
    const bare = median(times.get('node -e 0'));
    const rows = list.map(({ name }) => {
      const ms = median(times.get(name));
      const over = ms - bare;
      return {
        name,
        median_ms: ms,
        over_bare_ms: over,
        verdict: name === 'node -e 0' ? '' : over <= TARGET_MS ? 'PASS' : 'FAIL',
      };
    });
    const lines = [
      `cli bench: median of ${runs} spawns each, Node ${process.version}, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
      '',
      `${'command'.padEnd(26)}${'ms'.padStart(8)}${'over bare'.padStart(11)}   target ≤ ${TARGET_MS} ms over bare`,
      ...rows.map(
        (r) =>
          `${r.name.padEnd(26)}${r.median_ms.toFixed(0).padStart(8)}${(r.name === 'node -e 0' ? '' : `+${r.over_bare_ms.toFixed(0)}`).padStart(11)}   ${r.verdict}`,
      ),
    ];
    if (providerBin() === undefined) lines.push('', 'aide-provider: not built in this tree, skipped');
    process.stdout.write(`${lines.join('\n')}\n`);
    mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
    writeFileSync(
      join(ROOT, 'bench-results', 'cli.json'),
      `${JSON.stringify({ runs, target_over_bare_ms: TARGET_MS, node: process.version, commands: rows }, null, 2)}\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`cli bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
