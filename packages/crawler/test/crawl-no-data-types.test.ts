// crawl against a system whose flavor has no data types: it fails fast, before anything is recorded,
// with one clear line. A registry of its own (the real backend), whose sqlite3 data types are deleted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ExitCode } from '../src/errors.js';
import { main } from '../src/program.js';
import { startBackend, type TestBackend } from './helpers/backend.js';
import { execSqlite } from './helpers/sqlite.js';

let backend: TestBackend;
let tmp: string;

beforeAll(async () => {
  backend = await startBackend('notypes');
  tmp = mkdtempSync(join(tmpdir(), 'aide-crawler-notypes-'));
}, 180_000);

afterAll(async () => {
  await backend?.stop();
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

describe('crawl on a flavor without data types', () => {
  it('fails fast with one line naming the flavor, and records no crawl run', async () => {
    const file = join(tmp, 'plain.db');
    await execSqlite(file, 'CREATE TABLE items (id integer PRIMARY KEY, name text);\n');
    await backend.createSystem('bare_sqlite', 'sqlite3');
    const client = backend.client();
    try {
      const flavor = (await client.systemFlavors.list({ code: 'sqlite3', size: 1 })).items[0];
      if (flavor === undefined) throw new Error('no flavor sqlite3');
      for (;;) {
        const page = await client.dataTypes.list({ system_flavor_id: flavor.id, size: 100 });
        if (page.items.length === 0) break;
        for (const type of page.items) await client.dataTypes.delete(type.id);
      }

      let stdout = '';
      let stderr = '';
      const code = await main(
        ['crawl', '--system-code', 'bare_sqlite', '--connection-url', `sqlite:///${file}`],
        {
          stdout: (s) => (stdout += s),
          stderr: (s) => (stderr += s),
          env: backend.env,
        },
      );
      expect(code).toBe(ExitCode.FAILURE);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        "aide-crawler: flavor 'sqlite3' has no data types: seed them before crawling (pnpm seed:data-types)\n",
      );

      const system = (await client.systems.list({ code: 'bare_sqlite', size: 1 })).items[0];
      if (system === undefined) throw new Error('no system bare_sqlite');
      expect((await client.crawlRuns.list({ system_id: system.id, size: 100 })).items).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
