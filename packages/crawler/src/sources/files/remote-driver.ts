// What the SFTP and S3 drivers share: they open their store and hand it to the files inspection
// (inspect-files.ts, which reads Parquet/Avro/CSV/JSON-lines files whatever the store), given to them
// as a dependency so that each driver module stays small and loads no format reader before it runs.
import type { InspectedDatabase } from '../../model.js';
import type { SourceInspectOptions } from '../source-driver.js';
import type { FileStore } from './file-store.js';

export interface FileStoreInspectOptions extends SourceInspectOptions {
  /** The dataset kind the files become: `storage` (file://, s3://) or `sftp`. */
  kind: 'storage' | 'sftp';
  /** The flavor their types are normalised to. */
  flavor: 'storage_files' | 'sftp_files';
}

/** The files inspection of a store (inspect-files.ts's `inspectFileStore`). */
export type InspectFileStore = (
  store: FileStore,
  options: FileStoreInspectOptions,
) => Promise<InspectedDatabase>;

/** Opens the store, inspects it, and closes it whatever happens. */
export async function inspectStore(
  open: () => Promise<FileStore>,
  inspect: InspectFileStore,
  options: FileStoreInspectOptions,
): Promise<InspectedDatabase> {
  const store = await open();
  try {
    return await inspect(store, options);
  } finally {
    await store.close();
  }
}
