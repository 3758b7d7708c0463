import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const backendDir =
  process.env.AIDE_SDK_TEST_BACKEND_DIR ??
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'backend');

export default async function globalTeardown() {
  const state = globalThis.__AIDE_SDK_TEST__;
  if (!state) return;
  await state.server?.stop();
  // A shared server (DATABASE_URL) keeps running: drop the run's database; an embedded one just stops.
  if (state.postgres && process.env.DATABASE_URL) {
    const { dropDatabase } = await import(
      pathToFileURL(join(backendDir, 'test', 'support', 'backend-server.mjs')).href
    );
    await dropDatabase(state.postgres.url, state.database);
  }
  await state.postgres?.stop();
  for (const dir of [state.tempDir, state.pgDir]) if (dir) rmSync(dir, { recursive: true, force: true });
}
