import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/database/embedded-postgres.js';

// The real entry point (dist/main.js) as a child process, for tests about the process itself: signals,
// crashes, a database that goes away. Readiness is polled with generous bounds: a shared, busy machine
// may take many seconds to start Node, Nest and the pool.

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/**
 * Polls `probe` until it returns a value other than undefined (or throws), at most `timeoutMs`.
 * `what` names the condition in the timeout error. The pause between probes only paces the polling.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The status of GET `path`, or undefined when nothing answers (not listening, connection reset). */
export async function statusOf(url: string): Promise<number | undefined> {
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return undefined;
  }
}

export interface BackendProcess {
  child: ChildProcess;
  url: string;
  /** The last 50,000 characters of stdout and stderr. */
  output(): string;
  /** Sends SIGKILL if still running and waits for the exit. */
  kill(): Promise<void>;
}

/** Starts `node dist/main.js` with `env` on a free loopback port and waits until /health/ready is 200. */
export async function startBackendProcess(env: Record<string, string>): Promise<BackendProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      AIDE_LOG_FORMAT: 'json',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-50_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = once(child, 'exit');
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await exited;
  };
  try {
    await waitFor(
      'the backend to answer /health/ready with 200',
      async () => {
        if (child.exitCode !== null) {
          throw new Error(`the backend exited with code ${child.exitCode} before it was ready:\n${output}`);
        }
        return (await statusOf(`${url}/health/ready`)) === 200 ? true : undefined;
      },
      180_000,
    );
  } catch (error) {
    await kill();
    throw error;
  }
  return { child, url, output: () => output, kill };
}
