import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { CommanderError } from 'commander';
import { ExitCode } from '../src/errors.js';
import { createProgram } from '../src/program.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Parses `args` with output captured; resolves to the CommanderError commander "exits" with. */
async function parse(args: string[]): Promise<{ error: CommanderError; out: string; err: string }> {
  let out = '';
  let err = '';
  const program = createProgram({ writeOut: (s) => (out += s), writeErr: (s) => (err += s) });
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return { error, out, err };
    throw error;
  }
  throw new Error(`parsing ${args.join(' ')} did not exit`);
}

describe('aide-crawler program', () => {
  it('prints the package version for --version and exits 0', async () => {
    const { error, out } = await parse(['--version']);
    expect(out).toBe(`${pkg.version}\n`);
    expect(error).toMatchObject({ code: 'commander.version', exitCode: 0 });
  });

  it('reports an unknown command as a usage error (exit code 2)', async () => {
    const { error, err } = await parse(['frobnicate']);
    expect(error).toMatchObject({ code: 'commander.unknownCommand', exitCode: ExitCode.USAGE });
    expect(err).toContain("unknown command 'frobnicate'");
  });

  it('reports an unknown option as a usage error (exit code 2)', async () => {
    const { error } = await parse(['--no-such-flag']);
    expect(error).toMatchObject({ code: 'commander.unknownOption', exitCode: ExitCode.USAGE });
  });
});

describe('aide-crawler executable (dist/bin.js)', () => {
  const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
  const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

  it('exits 0 with the version', () => {
    const result = run('--version');
    expect(result.stdout).toBe(`${pkg.version}\n`);
    expect(result.status).toBe(0);
  });

  it('exits 2 on a usage error, with the message on stderr', () => {
    const result = run('frobnicate');
    expect(result.stderr).toContain("unknown command 'frobnicate'");
    expect(result.status).toBe(2);
  });
});
