import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import {
  type EmbeddedPostgresHandle,
  EmbeddedPostgresError,
  packagedBinaries,
  startEmbeddedPostgres,
} from '../../src/database/embedded-postgres.js';
import { withClient } from '../../src/database/pg-client.js';

// The embedded PostgreSQL of `pnpm start` and of the test harness, started for real in directories of
// this file's own.

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(options: Parameters<typeof startEmbeddedPostgres>[0]): Promise<EmbeddedPostgresHandle> {
  const handle = await startEmbeddedPostgres(options);
  cleanup.push(() => handle.stop());
  return handle;
}

function urlWithPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
}

async function loginError(url: string): Promise<string | undefined> {
  try {
    await withClient(url, (client) => client.query('SELECT 1'));
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('embedded PostgreSQL credentials', () => {
  // The directory itself (mode 0700) is handed to the postgres user; its parent, /tmp, is reachable.
  const dir = tempDir('aide-embedded-pg-');
  let port: number;
  let handle: EmbeddedPostgresHandle;

  it('gives a new cluster a random superuser password, kept in the data directory with mode 0600', async () => {
    handle = await start({ dir, port: 0 });
    // The port it chose: the next test starts the same cluster there again.
    port = Number(new URL(handle.url).port);
    expect(port).toBeGreaterThan(0);
    const password = readFileSync(handle.passwordFile, 'utf8').trim();
    expect(handle.passwordFile).toBe(join(dir, 'aide-postgres-password'));
    expect(statSync(handle.passwordFile).mode & 0o777).toBe(0o600);
    expect(password).not.toBe('postgres');
    expect(password.length).toBeGreaterThanOrEqual(24);
    expect(decodeURIComponent(new URL(handle.url).password)).toBe(password);
    expect(await loginError(handle.url)).toBeUndefined();
    // postgres/postgres, the old default, is refused.
    expect(await loginError(urlWithPassword(handle.url, 'postgres'))).toBe('28P01');
  }, 120_000);

  it('moves a cluster created with the old default password to a random one, keeping its data', async () => {
    // What a cluster of an earlier version looks like: password `postgres`, no password file.
    await withClient(handle.url, async (client) => {
      await client.query('CREATE TABLE kept (id int)');
      await client.query(`ALTER ROLE postgres PASSWORD 'postgres'`);
    });
    await handle.stop();
    rmSync(handle.passwordFile);

    const notices: string[] = [];
    handle = await start({ dir, port, onNotice: (m) => notices.push(m) });
    const password = readFileSync(handle.passwordFile, 'utf8').trim();
    expect(password).not.toBe('postgres');
    expect(statSync(handle.passwordFile).mode & 0o777).toBe(0o600);
    expect(notices.join('\n')).toMatch(/old default/);
    expect(await loginError(urlWithPassword(handle.url, 'postgres'))).toBe('28P01');
    const rows = await withClient(handle.url, (client) => client.query("SELECT to_regclass('kept') AS t"));
    expect(rows.rows).toEqual([{ t: 'kept' }]);
  }, 120_000);
});

// As root, PostgreSQL runs as the unprivileged `postgres` user; these cases only exist for root (CI runs
// as root), so they are skipped for other users.
const asRoot = process.getuid?.() === 0;
(asRoot ? describe : describe.skip)('as root, with the checkout under a private (0700) directory', () => {
  it('copies the binaries and places the data directory where the postgres user can reach them', async () => {
    const privateDir = tempDir('aide-private-');
    expect(statSync(privateDir).mode & 0o777).toBe(0o700);
    // The binaries seen through the private directory, as in a checkout under /root.
    symlinkSync(packagedBinaries().dir, join(privateDir, 'native'));
    const relocationRoot = tempDir('aide-relocated-');
    chmodSync(relocationRoot, 0o755);
    const notices: string[] = [];
    const handle = await start({
      dir: join(privateDir, '.aide', 'pg'),
      port: 0,
      binariesDir: join(privateDir, 'native'),
      relocationRoot,
      onNotice: (m) => notices.push(m),
    });
    expect(handle.dataDir.startsWith(join(relocationRoot, 'clusters'))).toBe(true);
    expect(notices.join('\n')).toContain(`PostgreSQL binaries copied to ${relocationRoot}`);
    expect(notices.join('\n')).toContain(`data directory is ${handle.dataDir}`);
    expect(statSync(handle.passwordFile).mode & 0o777).toBe(0o600);
    expect(await loginError(handle.url)).toBeUndefined();
  }, 180_000);

  it('refuses with one clear line an existing cluster the postgres user cannot reach', async () => {
    const privateDir = tempDir('aide-private-');
    mkdirSync(join(privateDir, 'pg'));
    writeFileSync(join(privateDir, 'pg', 'PG_VERSION'), '17\n');
    const relocationRoot = tempDir('aide-relocated-');
    chmodSync(relocationRoot, 0o755);
    const started = startEmbeddedPostgres({
      dir: join(privateDir, 'pg'),
      port: 0,
      relocationRoot,
    });
    await expect(started).rejects.toThrow(EmbeddedPostgresError);
    await expect(started).rejects.toThrow(
      /^The embedded PostgreSQL data directory .* is out of the postgres user's reach: [^\n]*$/,
    );
  }, 120_000);
});
