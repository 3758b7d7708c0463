// A FileStore over a local folder for tests of readers that take any store; it records the paths read.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { FileStore, StoredFile } from '../../src/sources/files/file-store.js';

export class RecordingFsStore implements FileStore {
  readonly display: string;
  bytesRead = 0;
  readonly pathsRead = new Set<string>();

  constructor(private readonly root: string) {
    this.display = `file://${root}`;
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- the interface is async; fs here is not
  async *list(): AsyncIterable<StoredFile> {
    const files: StoredFile[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else {
          const stat = statSync(full);
          files.push({
            path: relative(this.root, full).split(sep).join('/'),
            size: stat.size,
            modified: stat.mtime,
          });
        }
      }
    };
    walk(this.root);
    yield* files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  read(path: string, start: number, end?: number): Promise<Uint8Array> {
    const all = readFileSync(join(this.root, path));
    const from = start < 0 ? Math.max(0, all.length + start) : start;
    const bytes = all.subarray(from, Math.min(end ?? all.length, all.length));
    this.bytesRead += bytes.length;
    this.pathsRead.add(path);
    return Promise.resolve(bytes);
  }

  async close(): Promise<void> {}
}
