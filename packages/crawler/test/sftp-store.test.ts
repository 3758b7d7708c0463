// The SFTP FileStore against a real OpenSSH server (test/helpers/sshd.ts): listing, ranged reads,
// bytes read, the auth modes, host key checking and the errors a user sees (never with a secret).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CrawlerError } from '../src/errors.js';
import type { FileStore } from '../src/sources/files/file-store.js';
import { createSftpDriver } from '../src/sources/files/sftp-driver.js';
import { openSftpStore } from '../src/sources/files/sftp-store.js';
import { parseSftpUrl } from '../src/sources/files/sftp-url.js';
import {
  DATA,
  crawlerFailure,
  expectRangedReads,
  inspectThrough,
  listAll,
  withOpened,
} from './helpers/file-stores.js';
import { startSshd, type TestSshd } from './helpers/sshd.js';

let sshd: TestSshd;
let tree: string;
const data = DATA;
// Larger than one SFTP read (OpenSSH answers at most 256 KiB per request).
const big = Buffer.from(Array.from({ length: 700_000 }, (_, i) => (i * 7) % 251));

beforeAll(async () => {
  sshd = await startSshd();
  tree = join(sshd.served, 'tree');
  const write = (path: string, content: Buffer | string) => {
    mkdirSync(join(tree, path, '..'), { recursive: true });
    writeFileSync(join(tree, path), content);
  };
  // `a-b.txt` < `a.txt` < `a/x.txt` in code-point order ('-' < '.' < '/'), and U+FFFD < U+1F600,
  // which UTF-16 code units order the other way.
  for (const path of ['a.txt', 'a-b.txt', 'a/x.txt', '\uFFFD.txt', '\u{1F600}.txt', 'é/deep/er/f.txt'])
    write(path, path);
  for (let folder = 0; folder < 30; folder++) {
    for (let file = 0; file < 10; file++)
      write(`many/dt=2026-12-${folder}/part-${file}.csv`, `${folder},${file}\n`);
  }
  write('data.bin', data);
  write('big.bin', big);
  symlinkSync(join(tree, 'data.bin'), join(tree, 'link-to-data.bin'));
  symlinkSync(join(tree, 'a'), join(tree, 'link-to-a'));
}, 60_000);

afterAll(async () => {
  await sshd?.stop();
});

const base = () => `sftp://root@127.0.0.1:${sshd.port}`;
const keyed = (path = tree, extra = '') =>
  `${base()}${path}?identity=${sshd.userKey}&known_hosts=${sshd.knownHosts}${extra}`;

const withStore = <T>(url: string, work: (store: FileStore) => Promise<T>, env: NodeJS.ProcessEnv = {}) =>
  withOpened(openSftpStore(parseSftpUrl(url, env)), work);

/** The local tree's files, in code-point order of their paths (symlinks to files included). */
function expectedFiles(): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() || (entry.isSymbolicLink() && statSync(full).isFile()))
        out.push(relative(tree, full));
    }
  };
  walk(tree);
  return out.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

describe('SFTP file store', () => {
  it('lists every file under the root recursively, in code-point order, with sizes', async () => {
    const files = await withStore(keyed(), listAll);
    expect(files.map((f) => f.path)).toEqual(expectedFiles());
    expect(files).toHaveLength(6 + 300 + 3);
    expect(files.map((f) => f.path).slice(0, 3)).toEqual(['a-b.txt', 'a.txt', 'a/x.txt']);
    expect(files.map((f) => f.path).slice(-2)).toEqual(['\uFFFD.txt', '\u{1F600}.txt']);
    expect(files.find((f) => f.path === 'big.bin')?.size).toBe(big.length);
    expect(files.find((f) => f.path === 'link-to-data.bin')?.size).toBe(data.length);
    expect(files.find((f) => f.path === 'data.bin')?.modified).toBeInstanceOf(Date);
  });

  it('reads only the requested ranges, from the end too, and counts those bytes', async () => {
    await withStore(keyed(), async (store) => {
      expect(store.display).toBe(`${base()}${tree}`);
      await expectRangedReads(store);
      // Buffer.equals: Jest's deep equality takes seconds on 600 kB.
      expect(
        Buffer.from(await store.read('big.bin', 1000, 600_000)).equals(big.subarray(1000, 600_000)),
      ).toBe(true);
      expect(store.bytesRead).toBe(35 + 599_000);
      expect(Buffer.from(await store.read('é/deep/er/f.txt', 0))).toEqual(Buffer.from('é/deep/er/f.txt'));
    });
  });

  it('serves a single file as a root', async () => {
    await withStore(keyed(join(tree, 'data.bin')), async (store) => {
      const files = await listAll(store);
      expect(files.map((f) => [f.path, f.size])).toEqual([['data.bin', 100]]);
      expect(Buffer.from(await store.read(files[0].path, -4))).toEqual(data.subarray(96));
    });
  });

  it('logs in with a password from the URL or AIDE_CRAWLER_SFTP_PASSWORD, and never shows it', async () => {
    const { name, password } = sshd.passwordUser;
    const url = `sftp://${name}:${encodeURIComponent(password)}@127.0.0.1:${sshd.port}${tree}/a?known_hosts=${sshd.knownHosts}`;
    const target = parseSftpUrl(url, {});
    expect(target.redacted).not.toContain(password);
    const files = await withStore(url, async (store) => {
      expect(store.display).not.toContain(password);
      return listAll(store);
    });
    expect(files.map((f) => f.path)).toEqual(['x.txt']);
    const fromEnv = `sftp://${name}@127.0.0.1:${sshd.port}${tree}/a?known_hosts=${sshd.knownHosts}`;
    expect(await withStore(fromEnv, listAll, { AIDE_CRAWLER_SFTP_PASSWORD: password })).toHaveLength(1);

    const wrong = `${password}-wrong`;
    const message = await crawlerFailure(() =>
      withStore(fromEnv, listAll, { AIDE_CRAWLER_SFTP_PASSWORD: wrong }),
    );
    expect(message).toBe(`SSH authentication failed for ${name}@127.0.0.1:${sshd.port} (tried: password)`);
  });

  it('fails clearly with a key the server does not know, or an encrypted key without its passphrase', async () => {
    const stranger = `${base()}${tree}?identity=${sshd.strangerKey}&known_hosts=${sshd.knownHosts}`;
    expect(await crawlerFailure(() => withStore(stranger, listAll))).toBe(
      `SSH authentication failed for root@127.0.0.1:${sshd.port} (tried: publickey)`,
    );
    const encrypted = join(sshd.served, 'encrypted_key');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', 'right passphrase', '-f', encrypted]);
    const url = `${base()}${tree}?identity=${encrypted}&known_hosts=${sshd.knownHosts}`;
    expect(await crawlerFailure(() => withStore(url, listAll))).toMatch(
      /encrypted: set AIDE_CRAWLER_SFTP_PASSPHRASE/,
    );
    const wrong = await crawlerFailure(() =>
      withStore(url, listAll, { AIDE_CRAWLER_SFTP_PASSPHRASE: 'wrong passphrase' }),
    );
    expect(wrong).toMatch(/does not decrypt it/);
    expect(wrong).not.toContain('wrong passphrase');
  });

  it('refuses an unknown or changed host key unless strict_host_key=no', async () => {
    const empty = join(sshd.served, 'empty_known_hosts');
    writeFileSync(empty, '');
    const unknown = `${base()}${tree}?identity=${sshd.userKey}&known_hosts=${empty}`;
    const message = await crawlerFailure(() => withStore(unknown, listAll));
    expect(message).toMatch(
      /^host key verification failed: 127\.0\.0\.1:\d+ is not in .*empty_known_hosts \(its key: ssh-ed25519 SHA256:/,
    );
    expect(await withStore(`${unknown}&strict_host_key=no`, listAll)).toHaveLength(309);

    const changed = `${base()}${tree}?identity=${sshd.userKey}&known_hosts=${sshd.wrongKnownHosts}`;
    expect(await crawlerFailure(() => withStore(changed, listAll))).toMatch(
      /differs from the ssh-ed25519 key in .*wrong_known_hosts/,
    );
  });

  it('names a missing root or file in its error', async () => {
    expect(await crawlerFailure(() => withStore(keyed(`${tree}/nope`), listAll))).toBe(
      `no such file or folder: ${base()}${tree}/nope`,
    );
    await withStore(keyed(), async (store) => {
      expect(await crawlerFailure(() => store.read('missing.parquet', -8))).toBe(
        `no such file or folder: ${base()}${tree}/missing.parquet`,
      );
    });
  });

  it('stops on an aborted signal and closes twice without error', async () => {
    const store = await openSftpStore(parseSftpUrl(keyed(), {}));
    const controller = new AbortController();
    controller.abort(new CrawlerError('interrupted by test'));
    await expect(store.read('data.bin', 0, 10, controller.signal)).rejects.toThrow('interrupted by test');
    await store.close();
    await store.close();
  });

  it('rejects malformed URLs as usage errors', () => {
    expect(() => parseSftpUrl('sftp://127.0.0.1/x', {})).toThrow(/names no user/);
    expect(() => parseSftpUrl('sftp://u@127.0.0.1/x?password=p', {})).toThrow(/unknown parameter 'password'/);
    expect(() => parseSftpUrl('sftp://u:s3cret@127.0.0.1/x?strict_host_key=maybe', {})).toThrow(
      /strict_host_key must be 'yes' or 'no' in 'sftp:\/\/u:\*\*\*@127\.0\.0\.1\/x/,
    );
    const target = parseSftpUrl('sftp://u:s3cret@127.0.0.1:2222/~/in', { SSH_AUTH_SOCK: '/agent' });
    expect(target).toMatchObject({ path: 'in', display: 'sftp://u@127.0.0.1:2222/~/in', agent: undefined });
    expect(target.secrets).toEqual(['s3cret']);
    expect(parseSftpUrl('sftp://u@h/in', { SSH_AUTH_SOCK: '/agent' })).toMatchObject({
      agent: '/agent',
      port: 22,
    });
  });

  it('sftp: inspects through the files inspection it is given, then closes the store', async () => {
    const { driver, seen } = await inspectThrough(createSftpDriver, keyed());
    expect(driver).toMatchObject({
      name: 'sftp',
      schemes: ['sftp'],
      flavors: ['sftp_files', 'storage_files'],
    });
    expect(seen).toEqual({ database: 'a-b.txt', kind: 'sftp', flavor: 'sftp_files' });
  });
});
