// The FileStore of an SFTP server (ssh2, pure JavaScript): one SSH connection and one SFTP channel
// per crawl, ranged reads as SFTP READ requests at an offset (only the requested bytes cross the wire),
// the listing walked folder by folder in code-point order with a few folders read ahead.
// ssh2 is imported when a store opens: the CLI's start-up does not load it (ADR 0041).
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import type { Client, ConnectConfig, FileEntryWithStats, SFTPWrapper, Stats } from 'ssh2';
import { CrawlerError, interruption, throwIfInterrupted } from '../../errors.js';
import type { FileStore, StoredFile } from './file-store.js';
import {
  fingerprint,
  keyType,
  knownHostName,
  preferredHostKeyAlgorithms,
  readKnownHosts,
  verifyHostKey,
  type HostKeyVerdict,
} from './known-hosts.js';
import type { SftpTarget } from './sftp-url.js';

const READY_TIMEOUT_MS = 20_000;
/** Folders listed ahead of the one being walked, per level. */
const READ_AHEAD = 8;
const HOST_KEY_ALGORITHMS = [
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'rsa-sha2-512',
  'rsa-sha2-256',
  'ssh-rsa',
];
// SFTP status codes (draft-ietf-secsh-filexfer-02 §7).
const NO_SUCH_FILE = 2;
const PERMISSION_DENIED = 3;

/** Connects, checks the host key, authenticates and opens the root; throws CrawlerError with one clear line. */
export async function openSftpStore(target: SftpTarget, signal?: AbortSignal): Promise<FileStore> {
  throwIfInterrupted(signal);
  const scrub = scrubber(target.secrets);
  const where = `${target.host}:${target.port}`;
  const { default: ssh2 } = await import('ssh2');
  const config: ConnectConfig = {
    host: target.host,
    port: target.port,
    username: target.username,
    readyTimeout: READY_TIMEOUT_MS,
    tryKeyboard: false,
  };
  const tried: string[] = [];
  if (target.password !== undefined) {
    config.password = target.password;
    tried.push('password');
  }
  if (target.privateKey !== undefined) {
    config.privateKey = privateKeyOf(target, ssh2.utils.parseKey, scrub);
    if (target.passphrase !== undefined) config.passphrase = target.passphrase;
    tried.push('publickey');
  }
  if (target.agent !== undefined) {
    config.agent = target.agent;
    tried.push('agent');
  }
  if (tried.length === 0) {
    throw new CrawlerError(
      `no SSH credentials for ${target.display}: give a password (in the URL or AIDE_CRAWLER_SFTP_PASSWORD), a private key (?identity=/path or AIDE_CRAWLER_SFTP_KEY) or run an SSH agent (SSH_AUTH_SOCK)`,
    );
  }
  let verdict: HostKeyVerdict | undefined;
  let serverKey: Buffer | undefined;
  if (target.strictHostKey) {
    const hostName = knownHostName(target.host, target.port);
    let known: ReturnType<typeof readKnownHosts>;
    try {
      known = readKnownHosts(target.knownHosts);
    } catch (error) {
      throw new CrawlerError(`cannot read known_hosts ${target.knownHosts}: ${(error as Error).message}`);
    }
    const preferred = preferredHostKeyAlgorithms(known, hostName).filter((a) =>
      HOST_KEY_ALGORITHMS.includes(a),
    );
    if (preferred.length > 0) config.algorithms = { serverHostKey: { prepend: preferred } as never };
    config.hostVerifier = (key: Buffer) => {
      serverKey = key;
      verdict = verifyHostKey(known, hostName, key);
      return verdict.status === 'known';
    };
  }
  const client = new ssh2.Client();
  try {
    await connect(client, config, signal);
    // Requests are small and answered one by one: without this, Nagle's algorithm holds a request
    // until the previous packet is acknowledged (a delayed ACK, up to 40 ms per request on Linux).
    client.setNoDelay(true);
  } catch (error) {
    client.end();
    if (signal?.aborted === true) throw interruption(signal);
    if (verdict !== undefined && verdict.status !== 'known' && serverKey !== undefined) {
      throw new CrawlerError(hostKeyMessage(target, verdict, serverKey));
    }
    throw new CrawlerError(scrub(connectionMessage(error, target, where, tried)));
  }
  try {
    const sftp = await call<SFTPWrapper>((done) => client.sftp(done), signal);
    const root = await call<string>((done) => sftp.realpath(target.path, done), signal);
    const stats = await call<Stats>((done) => sftp.stat(root, done), signal);
    return new SftpStore(
      target.display,
      client,
      sftp,
      stats.isDirectory() ? { folder: root } : { file: root },
      scrub,
    );
  } catch (error) {
    client.end();
    throw error instanceof CrawlerError
      ? error
      : new CrawlerError(scrub(statusMessage(error, target.display)));
  }
}

class SftpStore implements FileStore {
  bytesRead = 0;
  private closing: Promise<void> | undefined;
  /** Why the connection ended before close(): requests fail at once instead of waiting forever. */
  private lost: string | undefined;
  /** The folder paths are relative to; a single-file root lists as its file name in its folder. */
  private readonly base: string;

  constructor(
    readonly display: string,
    private readonly client: Client,
    private readonly sftp: SFTPWrapper,
    private readonly root: { folder: string } | { file: string },
    private readonly scrub: (text: string) => string,
  ) {
    this.base = 'folder' in root ? root.folder : posix.dirname(root.file);
    // An 'error' event without a listener would end the process: the next request reports it.
    client.on('error', (error: Error) => (this.lost ??= scrub(error.message)));
    client.on('close', () => (this.lost ??= 'the server closed the connection'));
  }

  async *list(signal?: AbortSignal): AsyncIterable<StoredFile> {
    const root = this.root;
    if ('file' in root) {
      const stats = await this.run<Stats>((done) => this.sftp.stat(root.file, done), '', signal);
      yield { path: posix.basename(root.file), size: stats.size, modified: modifiedOf(stats) };
      return;
    }
    yield* this.walk('', this.readFolder(''), signal);
  }

  async read(path: string, start: number, end?: number, signal?: AbortSignal): Promise<Uint8Array> {
    throwIfInterrupted(signal);
    const full = posix.join(this.base, path);
    const handle = await this.run<Buffer>((done) => this.sftp.open(full, 'r', done), path, signal);
    try {
      let from = start;
      let to = end;
      // The size is asked for only when the range counts from the end or is open.
      if (start < 0 || end === undefined || end < 0) {
        const { size } = await this.run<Stats>((done) => this.sftp.fstat(handle, done), path, signal);
        from = start < 0 ? Math.max(0, size + start) : start;
        to = end === undefined ? size : end < 0 ? Math.max(0, size + end) : Math.min(end, size);
      }
      const buffer = Buffer.alloc(Math.max(0, to! - from));
      let filled = 0;
      while (filled < buffer.length) {
        const got = await this.run<number>(
          (done) =>
            this.sftp.read(handle, buffer, filled, buffer.length - filled, from + filled, (error, n) =>
              done(error, n),
            ),
          path,
          signal,
        );
        if (got === 0) break; // end of file: the range is clamped to the size
        filled += got;
        this.bytesRead += got;
      }
      return buffer.subarray(0, filled);
    } finally {
      // Not awaited: the next request goes out behind it on the same channel.
      this.sftp.close(handle, () => undefined);
    }
  }

  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.client.once('close', () => resolve());
      this.client.end();
    });
    return this.closing;
  }

  /** The files under `folder` (relative, '' for the root), depth first in code-point order of their paths. */
  private async *walk(
    folder: string,
    entries: Promise<FileEntryWithStats[]>,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<StoredFile> {
    // A folder's paths continue with '/': sorting folders by `name/` puts them where their files go.
    const sorted = (await entries)
      .map((entry) => ({ entry, key: entry.attrs.isDirectory() ? `${entry.filename}/` : entry.filename }))
      .sort((a, b) => compareCodePoints(a.key, b.key));
    const folders = sorted
      .filter(({ entry }) => entry.attrs.isDirectory())
      .map(({ entry }) => entry.filename);
    const ahead = new Map<string, Promise<FileEntryWithStats[]>>();
    const readAhead = () => {
      for (const name of folders) {
        if (ahead.size >= READ_AHEAD) break;
        if (!ahead.has(name)) ahead.set(name, this.readFolder(join(folder, name)));
      }
    };
    readAhead();
    for (const { entry } of sorted) {
      throwIfInterrupted(signal);
      const path = join(folder, entry.filename);
      if (entry.attrs.isDirectory()) {
        const listing = ahead.get(entry.filename)!;
        folders.shift();
        ahead.delete(entry.filename);
        readAhead();
        yield* this.walk(path, listing, signal);
      } else if (entry.attrs.isFile()) {
        yield { path, size: entry.attrs.size, modified: modifiedOf(entry.attrs) };
      } else if (entry.attrs.isSymbolicLink()) {
        // Links to files are listed; links to folders are not followed (they may loop).
        const target = await this.run<Stats>(
          (done) => this.sftp.stat(posix.join(this.base, path), done),
          path,
          signal,
        );
        if (target.isFile()) yield { path, size: target.size, modified: modifiedOf(target) };
      }
    }
  }

  private readFolder(folder: string): Promise<FileEntryWithStats[]> {
    const listing = this.run<FileEntryWithStats[]>(
      (done) => this.sftp.readdir(posix.join(this.base, folder), done),
      folder,
    );
    listing.catch(() => undefined); // awaited later, or never when the walk stops early
    return listing;
  }

  /** One SFTP request; its failure as a CrawlerError naming the path. */
  private async run<T>(request: (done: Callback<T>) => void, path: string, signal?: AbortSignal): Promise<T> {
    if (this.closing !== undefined) throw new CrawlerError(`${this.display} is closed`);
    if (this.lost !== undefined)
      throw new CrawlerError(`SFTP connection to ${this.display} lost: ${this.lost}`);
    try {
      return await call(request, signal);
    } catch (error) {
      if (error instanceof CrawlerError) throw error;
      const location = path === '' ? this.display : `${this.display.replace(/\/$/, '')}/${path}`;
      throw new CrawlerError(this.scrub(statusMessage(error, location)));
    }
  }
}

type Callback<T> = (error: Error | null | undefined, value?: T) => void;

/** Runs one callback-style request; the signal's reason is thrown as soon as it aborts. */
function call<T>(request: (done: Callback<T>) => void, signal?: AbortSignal): Promise<T> {
  throwIfInterrupted(signal);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(interruption(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    request((error, value) => {
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(value as T);
    });
  });
}

function connect(client: Client, config: ConnectConfig, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(interruption(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    client.once('ready', () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    client.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    client.connect(config);
  });
}

function privateKeyOf(
  target: SftpTarget,
  parseKey: (key: Buffer, passphrase?: string) => unknown,
  scrub: (text: string) => string,
): Buffer {
  const source = target.privateKey!;
  const name = 'file' in source ? source.file : 'AIDE_CRAWLER_SFTP_KEY';
  let key: Buffer;
  try {
    key = 'file' in source ? readFileSync(source.file) : Buffer.from(source.text);
  } catch (error) {
    throw new CrawlerError(
      `cannot read the private key ${name}: ${(error as NodeJS.ErrnoException).code ?? ''}`.trim(),
    );
  }
  const parsed = parseKey(key, target.passphrase);
  if (parsed instanceof Error) {
    const reason = /passphrase|decrypt/i.test(parsed.message)
      ? target.passphrase === undefined
        ? 'it is encrypted: set AIDE_CRAWLER_SFTP_PASSPHRASE'
        : 'the passphrase (AIDE_CRAWLER_SFTP_PASSPHRASE) does not decrypt it'
      : parsed.message;
    throw new CrawlerError(scrub(`cannot use the private key ${name}: ${reason}`));
  }
  return key;
}

function hostKeyMessage(target: SftpTarget, verdict: HostKeyVerdict, key: Buffer): string {
  const where = `${target.host}:${target.port}`;
  const offered = `${keyType(key)} ${fingerprint(key)}`;
  const skip = 'or pass ?strict_host_key=no to skip the check';
  switch (verdict.status) {
    case 'unknown':
      return `host key verification failed: ${where} is not in ${target.knownHosts} (its key: ${offered}); add it (ssh-keyscan -p ${target.port} ${target.host} >> ${target.knownHosts}, after checking the fingerprint), point ?known_hosts= at a file that has it, ${skip}`;
    case 'changed':
      return `host key verification failed: the key of ${where} (${offered}) differs from the ${verdict.knownTypes.join(', ')} key in ${target.knownHosts}; the host key changed or someone intercepts the connection`;
    case 'revoked':
      return `host key verification failed: the key of ${where} (${offered}) is marked @revoked in ${target.knownHosts}`;
    case 'known':
      return `host key of ${where} accepted`;
  }
}

function connectionMessage(error: unknown, target: SftpTarget, where: string, tried: string[]): string {
  const e = error as Error & { level?: string; code?: string };
  if (e.level === 'client-authentication') {
    return `SSH authentication failed for ${target.username}@${where} (tried: ${tried.join(', ')})`;
  }
  if (e.level === 'agent') return `the SSH agent (SSH_AUTH_SOCK) failed: ${e.message}`;
  if (e.level === 'client-timeout') return `timed out connecting to ${where} over SSH`;
  if (e.code !== undefined) return `cannot connect to ${where}: ${e.code}`;
  return `SSH connection to ${where} failed: ${e.message}`;
}

function statusMessage(error: unknown, location: string): string {
  const e = error as Error & { code?: number | string };
  if (e.code === NO_SUCH_FILE) return `no such file or folder: ${location}`;
  if (e.code === PERMISSION_DENIED) return `permission denied: ${location}`;
  return `SFTP failed on ${location}: ${e.message}`;
}

function scrubber(secrets: string[]): (text: string) => string {
  return (text) => secrets.reduce((out, secret) => out.split(secret).join('***'), text);
}

function modifiedOf(stats: Stats): Date | null {
  return typeof stats.mtime === 'number' ? new Date(stats.mtime * 1000) : null;
}

function join(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

/** Code-point order: UTF-8 bytes compare as code points do (UTF-16 code units do not, past U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
