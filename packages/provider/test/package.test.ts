// The packed tarballs of @aide/schemas, @aide/sdk and @aide/provider (made by test/global-setup.mjs
// with `pnpm pack`), installed with npm into a blank project outside the workspace, as a pipeline
// repository would: its contents, the `aide-provider` bin, and the provider imported by package name.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { installTarballs, tarball } from '../../sdk/test/helpers/tarballs.js';
import { VERSION } from '../src/version.js';

const run = promisify(execFile);

const program = `
import { InMemoryMetadataProvider, WatermarkManager, MetadataError } from '@aide/provider';
import { AideClient } from '@aide/sdk';
const provider = new InMemoryMetadataProvider({
  document: {
    connections: [{ name: 'landing', format: 'csv' }, { name: 'bronze', connection_type: 'lakehouse', format: 'delta' }],
    dataflows: [{ name: 'orders_flow', source: { connection_name: 'landing', table: 'orders' },
                  destination: { connection_name: 'bronze', table: 'orders' } }],
  },
});
const [dataflow] = await provider.getDataflows();
await new WatermarkManager(provider).saveWatermark(dataflow.dataflow_id, { offset: 1 });
const text = await provider.getWatermark(dataflow.dataflow_id);
await provider.close();
process.stdout.write(JSON.stringify({
  id: dataflow.dataflow_id, text, errors: typeof MetadataError, client: typeof AideClient,
}));
`;

let scratch: string;
let project: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'aide-provider-outside-'));
  project = join(scratch, 'pipelines');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'pipelines', private: true }));
  await installTarballs(project, ['schemas', 'sdk', 'provider']);
}, 300_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the @aide/provider tarball', () => {
  let files: string[];
  let manifest: { version: string; dependencies: Record<string, string>; bin: Record<string, string> };
  beforeAll(async () => {
    const dir = join(scratch, 'unpacked');
    mkdirSync(dir);
    await run('tar', ['-xzf', tarball('provider'), '-C', dir]);
    const root = join(dir, 'package');
    files = readdirSync(root, { recursive: true, encoding: 'utf8' });
    manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as typeof manifest;
  });

  it('carries the build, the bin, README and LICENSE, and no tests', () => {
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/bin.js']),
    );
    expect(files.filter((f) => /tsbuildinfo|(^|\/)test\//.test(f))).toEqual([]);
    expect(manifest.bin).toEqual({ 'aide-provider': './dist/cli/bin.js' });
  });

  it('depends on the published @aide/sdk and @aide/schemas, never on the workspace', () => {
    expect(Object.keys(manifest.dependencies)).toEqual(
      expect.arrayContaining(['@aide/sdk', '@aide/schemas']),
    );
    expect(JSON.stringify(manifest)).not.toContain('workspace:');
    expect(manifest.version).toBe(VERSION);
  });
});

describe('installed in a blank project', () => {
  it('runs `npx aide-provider --help` and `npx @aide/provider --version` through the installed bin', async () => {
    const npx = (args: string[]) => run('npx', ['--no-install', ...args], { cwd: project, timeout: 60_000 });
    const help = await npx(['aide-provider', '--help']);
    expect(help.stdout).toMatch(/^Usage: aide-provider /);
    expect(help.stdout).toContain('import [options] <files...>');
    const version = await npx(['@aide/provider', '--version']);
    expect(version.stdout.trim()).toBe(VERSION);
  });

  it('`--help` loads commander and the command-line module of the SDK, none of what the commands use', async () => {
    // A resolve hook (on the loader thread) logs every module the process loads.
    writeFileSync(
      join(project, 'log-hooks.mjs'),
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.LOADED_LOG, result.url + '\\n');
  return result;
}`,
    );
    writeFileSync(
      join(project, 'log-modules.mjs'),
      `import { register } from 'node:module';\nregister('./log-hooks.mjs', import.meta.url);\n`,
    );
    const log = join(scratch, 'loaded.txt');
    const bin = join(project, 'node_modules', '@aide', 'provider', 'dist', 'cli', 'bin.js');
    await run(process.execPath, ['--import', './log-modules.mjs', bin, '--help'], {
      cwd: project,
      env: { ...process.env, LOADED_LOG: log },
      timeout: 30_000,
    });
    const loaded = readFileSync(log, 'utf8').split('\n');
    expect(loaded.some((url) => url.includes('/node_modules/commander/'))).toBe(true);
    expect(loaded.some((url) => url.endsWith('/node_modules/@aide/sdk/dist/cli.js'))).toBe(true);
    const heavy =
      /\/node_modules\/(yaml|undici|zod|@aide\/schemas)\/|@aide\/sdk\/dist\/index\.js|\/cli\/commands\.js/;
    expect(loaded.filter((url) => heavy.test(url))).toEqual([]);
  });

  it('a plain Node program imports the provider by package name', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', program], {
      cwd: project,
      timeout: 20_000,
    });
    expect(JSON.parse(stdout)).toEqual({
      id: '1c172c53-13ba-5273-8d8f-66e8d480ccf5',
      text: '{"offset": 1}',
      errors: 'function',
      client: 'function',
    });
  });
});
