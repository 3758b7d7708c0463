// `lakehouse+<files URL>`: the Delta and Iceberg tables under a location on any file transport the
// crawler reads (`lakehouse+file:///warehouse`, `lakehouse+s3://bucket/warehouse`,
// `lakehouse+sftp://user@host/warehouse`). The transport is the files driver's; this driver only reads
// table metadata (ADR 0047).
import { CrawlerError, ExitCode } from '../../errors.js';
import type { FileStore } from '../files/file-store.js';
import type { SourceDriver, SourceTarget } from '../source-driver.js';
import { inspectLakehouse, LAKEHOUSE_FLAVORS } from './inspect-lakehouse.js';

/** How the lakehouse driver reaches files: the parse and open of a file transport's URL. */
export interface FileTransport<Target extends SourceTarget = SourceTarget> {
  parse(url: string): Target;
  open(target: Target, signal?: AbortSignal): Promise<FileStore>;
}

/**
 * A transport checked against its own target type, stored beside others: the driver only ever gives
 * `open` the target its `parse` returned.
 */
export function fileTransport<Target extends SourceTarget>(transport: FileTransport<Target>): FileTransport {
  return transport;
}

export interface LakehouseTarget extends SourceTarget {
  source: 'lakehouse';
  inner: SourceTarget;
  transport: FileTransport;
}

const PREFIX = 'lakehouse+';
const EXAMPLE: Record<string, string> = {
  file: 'file:///warehouse',
  s3: 's3://bucket/warehouse',
  sftp: 'sftp://user@host/warehouse',
};

/**
 * The driver over the given transports, by URL scheme (`file`, `s3`, `sftp`). A transport's `parse` is
 * cheap; its `open` imports its client library (ADR 0041).
 */
export function createLakehouseDriver(
  transports: Record<string, FileTransport>,
): SourceDriver<LakehouseTarget> {
  const schemes = Object.keys(transports);
  return {
    name: 'lakehouse',
    schemes: schemes.map((s) => `${PREFIX}${s}`),
    flavors: LAKEHOUSE_FLAVORS,
    usage: schemes.map(
      (s) => `${PREFIX}${EXAMPLE[s] ?? `${s}://…`}  (Delta Lake and Iceberg tables; metadata only)`,
    ),
    parse(url: string): LakehouseTarget {
      const trimmed = url.trim();
      const inner = trimmed.slice(PREFIX.length);
      const scheme = /^([a-z][a-z0-9]*):\/\//i.exec(inner)?.[1]?.toLowerCase();
      if (!trimmed.toLowerCase().startsWith(PREFIX) || scheme === undefined || !schemes.includes(scheme)) {
        throw new CrawlerError(
          `unsupported lakehouse URL; expected ${schemes.map((s) => `${PREFIX}${s}://…`).join(', ')}`,
          { exitCode: ExitCode.USAGE },
        );
      }
      return target(inner, transports[scheme]);
    },
    async inspect(t, options) {
      const store = await t.transport.open(t.inner, options.signal);
      try {
        const path = /^[a-z][a-z0-9+]*:\/\/[^/]*(\/[^?#]*)?/i.exec(t.inner.redacted)?.[1] ?? '';
        const name = decodeURIComponent(path.replace(/\/+$/, '').split('/').pop() ?? '');
        const display = t.redacted.slice(PREFIX.length);
        return await inspectLakehouse(store, { display, name: name === '' ? 'table' : name }, options);
      } finally {
        await store.close();
      }
    },
  };
}

function target(inner: string, transport: FileTransport): LakehouseTarget {
  const parsed = transport.parse(inner);
  return {
    source: 'lakehouse',
    redacted: `${PREFIX}${parsed.redacted}`,
    secrets: parsed.secrets,
    inner: parsed,
    transport,
  };
}
