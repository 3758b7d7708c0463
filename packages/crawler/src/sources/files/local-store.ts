// The local file system behind the FileStore interface (`file:///folder` or a single file): ranged reads
// through file handles, so that a Parquet footer costs its own bytes and nothing more.
import { open, opendir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { throwIfInterrupted } from '../../errors.js';
import { compareText } from '../../normalise/type-log.js';
import type { FileStore, StoredFile } from './file-store.js';

export class LocalFileStore implements FileStore {
  readonly display: string;
  private readBytes = 0;

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
    for (const entry of entries) {
      const path = prefix + entry.name;
      if (entry.folder) {
        yield* this.walk(`${path}/`, signal);
      } else {
        const info = await stat(this.absolute(path));
        yield { path, size: info.size, modified: info.mtime };
      }
    }
  }

  async read(path: string, start: number, end?: number, signal?: AbortSignal): Promise<Uint8Array> {
    throwIfInterrupted(signal);
    const handle = await open(this.absolute(path), 'r');
    try {
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
    } finally {
      await handle.close();
    }
  }

  async close(): Promise<void> {
    // Nothing held open between reads.
  }

  private absolute(path: string): string {
    return join(this.folder, ...path.split('/'));
  }
}
