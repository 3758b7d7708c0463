import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const backendDir =
  process.env.AIDE_SDK_TEST_BACKEND_DIR ??
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'backend');

function stop(child) {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export default async function globalTeardown() {
  const state = globalThis.__AIDE_SDK_TEST__;
  if (!state) return;
  await stop(state.child);
  if (state.embedded) {
    await state.embedded.stop();
  } else if (state.serverUrl && state.database) {
    // A shared server (DATABASE_URL): drop the run's database.
    const pg = createRequire(join(backendDir, 'package.json'))('pg');
    const admin = new pg.Client({ connectionString: state.serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${state.database} WITH (FORCE)`);
    await admin.end();
  }
  for (const dir of [state.tempDir, state.pgDir]) if (dir) rmSync(dir, { recursive: true, force: true });
}
