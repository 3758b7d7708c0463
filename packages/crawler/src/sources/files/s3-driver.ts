// The `s3://` source: objects of an S3 bucket or S3-compatible store (s3-store.ts), read by the files
// inspection into datasets of kind `storage`.
import type { SourceDriver } from '../source-driver.js';
import { inspectStore, type InspectFileStore } from './remote-driver.js';
import { parseS3Url, type S3Target } from './s3-url.js';

export function createS3Driver(inspectFileStore: InspectFileStore): SourceDriver<S3Target> {
  return {
    name: 's3',
    schemes: ['s3'],
    flavors: ['storage_files', 'sftp_files'],
    usage: ['s3://bucket/prefix[?region=eu-west-1&endpoint=http://host:port&force_path_style=true]'],
    parse: (url) => parseS3Url(url),
    inspect: (target, options) =>
      inspectStore(
        async () => (await import('./s3-store.js')).openS3Store(target, options.signal),
        inspectFileStore,
        { ...options, kind: 'storage', flavor: 'storage_files' },
      ),
  };
}
