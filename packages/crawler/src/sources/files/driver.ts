// The `files` source: `file:///folder` (or one file) on the local file system. The format readers and
// the dataset grouping work on any FileStore, so the SFTP and S3 drivers call inspectFileStore with
// their own stores.
import { fileURLToPath } from 'node:url';
import { CrawlerError, ExitCode } from '../../errors.js';
import type { InspectedDatabase } from '../../model.js';
import type { SourceDriver, SourceInspectOptions, SourceTarget } from '../source-driver.js';
import { inspectFileStore } from './inspect-store.js';
import { LocalFileStore } from './local-store.js';

export { inspectFileStore, type InspectFileStoreOptions } from './inspect-store.js';

export interface FilesTarget extends SourceTarget {
  /** The absolute local path of the folder or file. */
  path: string;
}

export const filesDriver: SourceDriver<FilesTarget> = {
  name: 'files',
  schemes: ['file'],
  flavors: ['storage_files', 'sftp_files'],
  usage: [
    'file:///path/to/folder  (Parquet, Avro, CSV, JSON-lines files; Hive-style partition folders)',
    'file:///path/to/file.parquet',
  ],

  parse(url: string): FilesTarget {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw usage(`invalid file URL '${url}': expected file:///absolute/path`);
    }
    if (parsed.protocol !== 'file:') throw usage(`not a file URL: '${url}'`);
    if (parsed.host !== '' && parsed.host !== 'localhost') {
      throw usage(
        `file URL '${url}' names host '${parsed.host}': only local paths (file:///path) are read; use sftp:// for a remote host`,
      );
    }
    if (parsed.search !== '' || parsed.hash !== '')
      throw usage(`file URL '${url}' takes no query or fragment`);
    return { source: 'files', redacted: url, secrets: [], path: fileURLToPath(parsed) };
  },

  async inspect(target: FilesTarget, options: SourceInspectOptions): Promise<InspectedDatabase> {
    let store: LocalFileStore;
    try {
      store = await LocalFileStore.open(target.path);
    } catch (error) {
      throw new CrawlerError(`cannot read ${target.redacted}: ${(error as Error).message}`, { cause: error });
    }
    try {
      return await inspectFileStore(store, { ...options, kind: 'storage', source: 'files' });
    } finally {
      await store.close();
    }
  },
};

function usage(message: string): CrawlerError {
  return new CrawlerError(message, { exitCode: ExitCode.USAGE });
}
