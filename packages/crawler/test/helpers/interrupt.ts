// What the interrupt tests share: the executable started as a child process, a wait on state the
// databases show (never on a fixed time), and the system's crawl runs as the registry has them.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from '@jest/globals';
import type { TestBackend } from './backend.js';

const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/**
 * Resolves when `probe` answers true, probing again after each answer: the wait is for an event a
 * database shows (a session waiting on a lock), never for a fixed time. Fails if `child` exits first.
 */
export async function until(
  probe: () => Promise<boolean>,
  child?: ChildProcess,
  what?: string,
): Promise<void> {
  for (;;) {
    if (child !== undefined && child.exitCode !== null)
      throw new Error(`the crawler exited (${child.exitCode}) before ${what}`);
    if (await probe()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** `aide-crawler args` (dist/bin.js) with the registry settings of `backend`, its output collected. */
export function startCrawler(backend: TestBackend, args: string[]) {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...backend.env, AIDE_CRAWLER_DEBUG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** The crawl runs of the system `code`, oldest first. */
export async function crawlRuns(backend: TestBackend, code: string) {
  const client = backend.client();
  try {
    const system = (await client.systems.list({ code, size: 1 })).items[0];
    if (system === undefined) throw new Error(`no system ${code}`);
    return (await client.crawlRuns.list({ system_id: system.id, size: 100, sort: 'started_at' })).items;
  } finally {
    await client.close();
  }
}

/** What the crawler prints on stderr when `signal` stops it. */
export const interruptedStderr = (signal: string) =>
  `aide-crawler: ${signal} received, stopping (send it again to stop at once)\n` +
  `aide-crawler: interrupted by ${signal}\n`;

/**
 * Starts `crawl` for system `code` with `args`, waits until `waiting()` shows its catalog query held
 * and its run is recorded `running`, sends `signal`, and checks what an interrupted crawl leaves: the
 * exit code `exitCode`, the acknowledgement and the error on stderr, the run marked failed.
 */
export async function interruptCrawl(
  backend: TestBackend,
  code: string,
  args: string[],
  signal: 'SIGINT' | 'SIGTERM',
  exitCode: number,
  waiting: () => Promise<boolean>,
): Promise<void> {
  const before = await crawlRuns(backend, code);
  const crawl = startCrawler(backend, ['crawl', '--system-code', code, ...args]);
  await until(waiting, crawl.child, 'its catalog query waiting on the lock');
  // The run is recorded while the database is inspected.
  await until(async () => (await crawlRuns(backend, code)).length > before.length, crawl.child, 'its run');
  const running = await crawlRuns(backend, code);
  expect(running).toHaveLength(before.length + 1);
  expect(running[running.length - 1]).toMatchObject({ status: 'running' });

  crawl.child.kill(signal);
  expect((await crawl.exited).code).toBe(exitCode);
  expect(crawl.output()).toEqual({ stdout: '', stderr: interruptedStderr(signal) });
  const runs = await crawlRuns(backend, code);
  expect(runs).toHaveLength(before.length + 1);
  expect(runs[runs.length - 1]).toMatchObject({
    status: 'failed',
    error_message: `interrupted by ${signal}`,
  });
  expect(runs[runs.length - 1]?.finished_at).not.toBeNull();
}
