// The local file system behind the FileStore interface (`file:///folder` or a single file): ranged reads
// through file handles, so that a Parquet footer costs its own bytes and nothing more.
import { open, opendir, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { throwIfInterrupted } from '../../errors.js';
import { compareText } from '../../normalise/type-log.js';
import type { FileStore, StoredFile } from './file-store.js';

/** Files stat'ed at once while listing. */
const STAT_BATCH = 64;

/** Handles kept open between reads at most (more while reads are in flight). */
const HELD_FILES = 64;

interface HeldFile {
  handle: Promise<FileHandle>;
  /** Reads in flight on it: an idle handle only is closed. */
  users: number;
  /** Forgotten after a failed read. */
  dropped?: boolean;
}

export class LocalFileStore implements FileStore {
  readonly display: string;
  private readBytes = 0;
  private readonly held = new Map<string, HeldFile>();

  /**
   * @param root an absolute folder, or a file: the store then lists that one file, by its name.
   * @param single whether `root` is a file (the caller has stat'ed it).
   */
  private constructor(
    private readonly folder: string,
    private readonly single: string | null,
  ) {
    this.display = pathToFileURL(folder).href.replace(/\/$/, '');
  }

  /** Opens a store on a folder or a single file; throws the fs error when the path does not exist. */
  static async open(path: string): Promise<LocalFileStore> {
    const info = await stat(path);
    return info.isDirectory()
      ? new LocalFileStore(path, null)
      : new LocalFileStore(dirname(path), basename(path));
  }

  get bytesRead(): number {
    return this.readBytes;
  }

  async *list(signal?: AbortSignal): AsyncIterable<StoredFile> {
    if (this.single !== null) {
      const info = await stat(join(this.folder, this.single));
      yield { path: this.single, size: info.size, modified: info.mtime };
      return;
    }
    yield* this.walk('', signal);
  }

  /** Depth-first, entries sorted by name with a `/` after folder names, so paths come out in code-point order. */
  private async *walk(prefix: string, signal?: AbortSignal): AsyncIterable<StoredFile> {
    throwIfInterrupted(signal);
    const entries: { key: string; name: string; folder: boolean }[] = [];
    const folder = await opendir(join(this.folder, ...prefix.split('/').filter((part) => part !== '')));
    for await (const entry of folder) {
      let isFolder = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        // Links to files are read; links to folders are not followed (a link loop would never end).
        const target = await stat(join(folder.path, entry.name)).catch(() => null);
        if (target === null || !target.isFile()) continue;
        isFolder = false;
      } else if (!isFolder && !entry.isFile()) {
        continue; // sockets, fifos, devices
      }
      entries.push({ key: isFolder ? `${entry.name}/` : entry.name, name: entry.name, folder: isFolder });
    }
    entries.sort((a, b) => compareText(a.key, b.key));
    // Files are stat'ed STAT_BATCH at a time (a partition folder may hold thousands), yielded in order.
    for (let i = 0; i < entries.length;) {
      if (entries[i].folder) {
        yield* this.walk(`${prefix}${entries[i].name}/`, signal);
        i++;
        continue;
      }
      const batch: string[] = [];
      for (; i < entries.length && !entries[i].folder && batch.length < STAT_BATCH; i++) {
        batch.push(prefix + entries[i].name);
      }
      const infos = await Promise.all(batch.map((path) => stat(this.absolute(path))));
      for (const [k, path] of batch.entries()) {
        yield { path, size: infos[k].size, modified: infos[k].mtime };
      }
    }
  }

  async read(path: string, start: number, end?: number, signal?: AbortSignal): Promise<Uint8Array> {
    throwIfInterrupted(signal);
    const held = this.hold(path);
    try {
      const handle = await held.handle;
      // A range with both ends known needs no stat: a read past the end stops at it.
      const size = start >= 0 && end !== undefined ? end : (await handle.stat()).size;
      const from = start < 0 ? Math.max(0, size + start) : Math.min(start, size);
      const to = Math.max(from, Math.min(end ?? size, size));
      const buffer = new Uint8Array(to - from);
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, from + filled);
        if (bytesRead === 0) break; // the file shrank while we read it
        filled += bytesRead;
      }
      this.readBytes += filled;
      return filled === buffer.length ? buffer : buffer.subarray(0, filled);
    } catch (error) {
      this.drop(path, held);
      throw error;
    } finally {
      held.users--;
      if (held.dropped && held.users === 0) void closeQuietly(held.handle);
      this.evict();
    }
  }

  async close(): Promise<void> {
    const held = [...this.held.values()];
    this.held.clear();
    await Promise.all(held.map((h) => closeQuietly(h.handle)));
  }

  /**
   * The open handle of a file, kept for the next read of it (a Parquet footer is two reads: its length,
   * then the footer): one open and close per file instead of one per read.
   */
  private hold(path: string): HeldFile {
    let held = this.held.get(path);
    if (held === undefined) {
      held = { handle: open(this.absolute(path), 'r'), users: 0 };
      this.held.set(path, held);
    }
    held.users++;
    return held;
  }

  /** Forgets a handle a read failed on; it is closed when its last read ends. */
  private drop(path: string, held: HeldFile): void {
    held.dropped = true;
    if (this.held.get(path) === held) this.held.delete(path);
  }

  /** Closes the oldest idle handles beyond the bound (insertion order is age). */
  private evict(): void {
    for (const [path, held] of this.held) {
      if (this.held.size <= HELD_FILES) return;
      if (held.users > 0) continue;
      this.held.delete(path);
      void closeQuietly(held.handle);
    }
  }

  private absolute(path: string): string {
    return join(this.folder, ...path.split('/'));
  }
}

async function closeQuietly(handle: Promise<FileHandle>): Promise<void> {
  try {
    await (await handle).close();
  } catch {
    // not opened, or already closed: nothing held
  }
}
