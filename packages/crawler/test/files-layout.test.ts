// The files source's datasets: Hive-style partitions, many files merged into one schema with conflicts
// reported, corrupt files reported while the crawl goes on, footers read without the data pages.
import {
  mkdtempSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { ExitCode, InterruptedError } from '../src/errors.js';
import type { InspectedDatabase } from '../src/model.js';
import { filesDriver } from '../src/sources/files/driver.js';
import { inspectFileStore } from '../src/sources/files/inspect-store.js';
import { LocalFileStore } from '../src/sources/files/local-store.js';
import { column, inspectPath, LAKE, NO_FILTERS, table } from './helpers/files.js';

let lake: InspectedDatabase;
const scratch = mkdtempSync(join(tmpdir(), 'aide-crawler-files-'));
beforeAll(async () => {
  lake = await inspectPath(LAKE);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('Hive-style partition folders', () => {
  it('make one dataset with typed partition columns after the file columns, and partition_by', () => {
    const events = table(lake, 'events');
    expect(events.columns.map((c) => c.name)).toEqual(['id', 'kind', 'at', 'tags', 'score', 'dt']);
    // __HIVE_DEFAULT_PARTITION__ is Hive's null partition.
    expect(column(events, 'dt')).toMatchObject({
      native_type: 'date32 (partition folder)',
      type: { data_type: 'date32' },
      nullable: true,
    });
    expect(events.partition_key).toBe('dt');
    expect(events.placement).toEqual({
      kind: 'storage',
      object_name: 'events',
      flavor: 'storage_files',
      attributes: {
        path: `file://${LAKE}/events/`,
        file_format: 'parquet',
        compression: 'snappy',
        partition_by: ['dt'],
      },
    });
    const sales = table(lake, 'sales');
    expect(sales.columns.map((c) => [c.name, c.type?.data_type, c.nullable])).toEqual([
      ['sku', 'utf8', false],
      ['qty', 'int64', false],
      ['year', 'int64', false],
      ['month', 'int64', false],
    ]);
    expect(sales.placement?.attributes.partition_by).toEqual(['year', 'month']);
  });

  it('skips bookkeeping and hidden files (_SUCCESS, .hidden/) without a problem', () => {
    expect(lake.problems?.map((p) => p.path)).not.toContain('events/_SUCCESS');
    expect(lake.problems?.some((p) => p.path.startsWith('.hidden'))).toBe(false);
  });

  it('a file whose partition folders differ from those of most files of its table is reported, not merged', async () => {
    const root = join(scratch, 'mixed-partitions');
    mkdirSync(join(root, 't', 'dt=2026-01-01'), { recursive: true });
    writeFileSync(join(root, 't', 'dt=2026-01-01', 'a.csv'), 'x\n1\n');
    mkdirSync(join(root, 't', 'dt=2026-01-02'), { recursive: true });
    writeFileSync(join(root, 't', 'dt=2026-01-02', 'a.csv'), 'x\n2\n');
    writeFileSync(join(root, 't', 'b.csv'), 'x,y\n1,2\n');
    const inspection = await inspectPath(root);
    expect(table(inspection, 't').columns.map((c) => c.name)).toEqual(['x', 'dt']);
    expect(inspection.problems).toContainEqual({
      path: 't/b.csv',
      reason:
        'partition folders (none) differ from those of the other files of dataset t (dt): file left out',
    });
  });
});

describe('many files of one table', () => {
  it('merge: columns unioned, types widened where safe, conflicts reported with both types', () => {
    const metrics = table(lake, 'metrics');
    expect(column(metrics, 'value')).toMatchObject({ native_type: 'INT64', type: { data_type: 'int64' } });
    expect(column(metrics, 'label')).toMatchObject({
      native_type: 'BYTE_ARRAY (STRING)',
      type: { data_type: 'utf8' },
    });
    expect(lake.problems).toContainEqual({
      path: 'metrics/part-1.parquet',
      reason:
        'column label: INT64 here, BYTE_ARRAY (STRING) in metrics/part-0.parquet; no type holds both, the dataset keeps BYTE_ARRAY (STRING)',
    });
    // score exists only in dt=2026-12-02: nullable in the dataset.
    expect(column(table(lake, 'events'), 'score')).toMatchObject({ native_type: 'DOUBLE', nullable: true });
  });
});

describe('corrupt and unreadable files', () => {
  it('are problems with their path and reason; the good file of the folder is still a dataset', () => {
    expect(table(lake, 'broken').columns.map((c) => c.name)).toEqual(['n']);
    const reasons = Object.fromEntries((lake.problems ?? []).map((p) => [p.path, p.reason]));
    expect(reasons['broken/truncated.parquet']).toMatch(/truncated/);
    expect(reasons['broken/garbage.parquet']).toMatch(/no PAR1 magic/);
    expect(reasons['README.txt']).toBe(
      'not a Parquet, Avro, CSV or JSON-lines file (by its name and first bytes)',
    );
  });

  it('a footer that lies about its length, a bad Avro header and bad gzip are reported too', async () => {
    const root = join(scratch, 'corrupt');
    mkdirSync(root, { recursive: true });
    const good = readFileSync(join(LAKE, 'broken', 'good.parquet'));
    const lying = Buffer.from(good);
    lying.writeUInt32LE(good.length * 2, good.length - 8);
    writeFileSync(join(root, 'lying.parquet'), lying);
    const mangled = Buffer.from(good);
    mangled.fill(0xff, good.length - 8 - good.readUInt32LE(good.length - 8), good.length - 8);
    writeFileSync(join(root, 'mangled.parquet'), mangled);
    writeFileSync(
      join(root, 'header.avro'),
      Buffer.concat([Buffer.from('Obj\x01', 'latin1'), Buffer.from([0x02, 0x99])]),
    );
    writeFileSync(join(root, 'bad.csv.gz'), 'plain text, not gzip');
    const inspection = await inspectPath(root);
    expect(inspection.tables).toEqual([]);
    const reasons = Object.fromEntries((inspection.problems ?? []).map((p) => [p.path, p.reason]));
    expect(reasons['lying.parquet']).toMatch(/^footer length \d+ exceeds the file/);
    expect(reasons['mangled.parquet']).toMatch(/^corrupt footer: /);
    expect(reasons['header.avro']).toMatch(/header/);
    expect(reasons['bad.csv.gz']).toMatch(/^not a valid gzip file/);
  });
});

describe('bytes read', () => {
  it('per Parquet file: the footer and the 8 bytes after it, never the data pages', async () => {
    const root = join(scratch, 'bytes');
    mkdirSync(root, { recursive: true });
    // A file with real data pages (1.6 MB of them) beside two fixtures.
    const values = Array.from({ length: 400_000 }, (_, i) => (i * 7919) % 2_000_000_000);
    writeFileSync(
      join(root, 'large.parquet'),
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [{ name: 'n', data: values, type: 'INT32' }],
          codec: 'UNCOMPRESSED',
        }),
      ),
    );
    for (const name of ['all_types.parquet', 'legacy.parquet'])
      writeFileSync(join(root, name), readFileSync(join(LAKE, name)));
    const store = await LocalFileStore.open(root);
    const inspection = await inspectFileStore(store, {
      filters: NO_FILTERS,
      kind: 'storage',
      source: 'files',
    });
    expect(inspection.tables).toHaveLength(3);
    let footers = 0;
    for (const name of ['all_types.parquet', 'large.parquet', 'legacy.parquet']) {
      const bytes = readFileSync(join(root, name));
      footers += bytes.readUInt32LE(bytes.length - 8) + 8;
    }
    expect(store.bytesRead).toBe(footers);
    expect(statSync(join(root, 'large.parquet')).size).toBeGreaterThan(1_000_000);
    expect(footers).toBeLessThan(20_000);
  });

  it('keeps a file open between its reads, and nothing open once the store is closed', async () => {
    const openFiles = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(LAKE);
        } catch {
          return false; // closed while listed
        }
      }).length;
    const store = await LocalFileStore.open(LAKE);
    await inspectFileStore(store, { filters: NO_FILTERS, kind: 'storage', source: 'files' });
    expect(openFiles()).toBeGreaterThan(0);
    expect(openFiles()).toBeLessThanOrEqual(64);
    await store.close();
    expect(openFiles()).toBe(0);
  });
});

describe('the driver', () => {
  it('parses file URLs and refuses others with a usage error', () => {
    expect(filesDriver.parse('file:///data/lake')).toMatchObject({
      source: 'files',
      path: '/data/lake',
      secrets: [],
    });
    for (const url of ['file://remote-host/data', 'file:///data?x=1', 'http://x/y']) {
      let failure: unknown;
      try {
        filesDriver.parse(url);
      } catch (error) {
        failure = error;
      }
      expect([url, failure]).toEqual([url, expect.objectContaining({ exitCode: ExitCode.USAGE })]);
    }
    expect(filesDriver).toMatchObject({
      name: 'files',
      schemes: ['file'],
      flavors: ['storage_files', 'sftp_files'],
    });
  });

  it('reads a single file as a dataset of its own', async () => {
    const inspection = await inspectPath(join(LAKE, 'users', 'part-1.avro'));
    expect(inspection.tables.map((t) => [t.name, t.placement?.attributes.path])).toEqual([
      ['part-1.avro', `file://${LAKE}/users/part-1.avro`],
    ]);
  });

  it('applies --tables and --exclude-tables to dataset names', async () => {
    const only = await inspectPath(LAKE, { tables: ['ev*', 'sales'], exclude_tables: ['sales'] });
    expect(only.tables.map((t) => t.name)).toEqual(['events']);
  });

  it("stops with the signal's reason when interrupted, instead of reporting files as problems", async () => {
    const controller = new AbortController();
    const reason = new InterruptedError('SIGINT');
    controller.abort(reason);
    const store = await LocalFileStore.open(LAKE);
    await expect(
      inspectFileStore(store, {
        filters: NO_FILTERS,
        kind: 'sftp',
        source: 'files',
        signal: controller.signal,
      }),
    ).rejects.toBe(reason);
  });

  it('places datasets of an SFTP store as kind sftp, with archive instead of partition_by', async () => {
    // The root itself is the partitioned table: one dataset named after the root folder.
    const store = await LocalFileStore.open(join(LAKE, 'events'));
    const inspection = await inspectFileStore(store, { filters: NO_FILTERS, kind: 'sftp', source: 'sftp' });
    expect(inspection).toMatchObject({ dialect: 'sftp', flavor: 'sftp_files' });
    expect(inspection.tables.map((t) => [t.name, t.placement])).toEqual([
      [
        'events',
        {
          kind: 'sftp',
          object_name: 'events',
          flavor: 'sftp_files',
          attributes: {
            path: `file://${LAKE}/events/`,
            file_format: 'parquet',
            compression: 'snappy',
            archive: null,
          },
        },
      ],
    ]);
  });

  it('fails with a runtime error when the path does not exist', async () => {
    await expect(inspectPath(join(scratch, 'missing'))).rejects.toMatchObject({ exitCode: ExitCode.FAILURE });
  });

  it('lists files recursively in code-point order of their paths', async () => {
    const root = join(scratch, 'order');
    for (const path of ['b/x.csv', 'a-b.csv', 'a/z.csv', 'a.csv', 'A.csv']) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), 'x\n1\n');
    }
    const store = await LocalFileStore.open(root);
    const paths: string[] = [];
    for await (const file of store.list()) paths.push(file.path);
    expect(paths).toEqual(['A.csv', 'a-b.csv', 'a.csv', 'a/z.csv', 'b/x.csv']);
    expect(statSync(join(root, 'a.csv')).size).toBe(4);
  });
});
