// The SFTP and S3 drivers bound to the files inspection (the registry loads this module only when a
// URL of theirs is crawled; their client libraries load only when a store opens).
import { inspectFileStore } from './inspect-store.js';
import type { InspectFileStore } from './remote-driver.js';
import { createS3Driver } from './s3-driver.js';
import { createSftpDriver } from './sftp-driver.js';

const inspectAs =
  (source: string): InspectFileStore =>
  (store, options) =>
    inspectFileStore(store, { filters: options.filters, signal: options.signal, kind: options.kind, source });

export const sftpDriver = createSftpDriver(inspectAs('sftp'));
export const s3Driver = createS3Driver(inspectAs('s3'));
