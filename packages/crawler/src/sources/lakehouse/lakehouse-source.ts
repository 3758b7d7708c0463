// The lakehouse driver over the crawler's three file transports: local folders, S3 and SFTP (the
// latter two import their client libraries only when a store opens).
import { filesDriver } from '../files/driver.js';
import { LocalFileStore } from '../files/local-store.js';
import { parseS3Url } from '../files/s3-url.js';
import { parseSftpUrl } from '../files/sftp-url.js';
import { createLakehouseDriver, fileTransport } from './driver.js';

export const lakehouseDriver = createLakehouseDriver({
  file: fileTransport({
    parse: (url) => filesDriver.parse(url),
    open: (target) => LocalFileStore.open(target.path),
  }),
  s3: fileTransport({
    parse: (url) => parseS3Url(url),
    open: async (target, signal) => (await import('../files/s3-store.js')).openS3Store(target, signal),
  }),
  sftp: fileTransport({
    parse: (url) => parseSftpUrl(url),
    open: async (target, signal) => (await import('../files/sftp-store.js')).openSftpStore(target, signal),
  }),
});
