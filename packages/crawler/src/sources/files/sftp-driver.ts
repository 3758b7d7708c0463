// The `sftp://` source: files on an SFTP server (sftp-store.ts), read by the files inspection into
// datasets of kind `sftp`.
import type { SourceDriver } from '../source-driver.js';
import { inspectStore, type InspectFileStore } from './remote-driver.js';
import { parseSftpUrl, type SftpTarget } from './sftp-url.js';

export function createSftpDriver(inspectFileStore: InspectFileStore): SourceDriver<SftpTarget> {
  return {
    name: 'sftp',
    schemes: ['sftp'],
    flavors: ['sftp_files', 'storage_files'],
    usage: [
      'sftp://user[:password]@host[:port]/path[?identity=/path/to/key&known_hosts=/path&strict_host_key=no]',
    ],
    parse: (url) => parseSftpUrl(url),
    inspect: (target, options) =>
      inspectStore(
        async () => (await import('./sftp-store.js')).openSftpStore(target, options.signal),
        inspectFileStore,
        { ...options, kind: 'sftp', flavor: 'sftp_files' },
      ),
  };
}
