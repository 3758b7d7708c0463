// What the remote file store tests share: listing a store, opening one for a piece of work, the
// CrawlerError a failing call must end in, and a driver's inspect run with a stand-in files inspection.
import { expect } from '@jest/globals';
import { CrawlerError } from '../../src/errors.js';
import type { InspectedDatabase } from '../../src/model.js';
import type { FileStore, StoredFile } from '../../src/sources/files/file-store.js';
import type { InspectFileStore } from '../../src/sources/files/remote-driver.js';
import type { SourceDriver } from '../../src/sources/source-driver.js';

export async function listAll(store: FileStore): Promise<StoredFile[]> {
  const files: StoredFile[] = [];
  for await (const file of store.list()) files.push(file);
  return files;
}

/** Runs `work` on the opened store and closes it. */
export async function withOpened<T>(
  opening: Promise<FileStore>,
  work: (store: FileStore) => Promise<T>,
): Promise<T> {
  const store = await opening;
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** The message of the CrawlerError `work` must fail with. */
export async function crawlerFailure(work: () => Promise<unknown>): Promise<string> {
  const error = await work().then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CrawlerError);
  return (error as Error).message;
}

/**
 * Inspects `url` through a driver made by `create` with a files inspection that reads the store's first
 * path and the options it is given; also checks the store is closed afterwards.
 */
export async function inspectThrough(
  create: (inspect: InspectFileStore) => SourceDriver,
  url: string,
): Promise<{ driver: SourceDriver; seen: unknown }> {
  let store: FileStore | undefined;
  const driver = create(async (opened, options) => {
    store = opened;
    const first = (await listAll(opened))[0]?.path;
    return { database: first, kind: options.kind, flavor: options.flavor } as unknown as InspectedDatabase;
  });
  const filters = {
    schemas: [],
    exclude_schemas: [],
    tables: [],
    exclude_tables: [],
    include_partitions: false,
  };
  const seen = await driver.inspect(driver.parse(url), { filters });
  await expect(store!.read('data.bin', 0, 1)).rejects.toThrow(CrawlerError);
  return { driver, seen };
}

/** The 100 bytes 0..99 that both stores serve as `data.bin`. */
export const DATA = Buffer.from(Array.from({ length: 100 }, (_, i) => i));

/**
 * The ranged reads of the FileStore contract on `data.bin` (DATA), on a store that has read nothing
 * yet: bytes [start, end), from the end, clamped, empty past the end; bytesRead counts what was asked.
 */
export async function expectRangedReads(store: FileStore): Promise<void> {
  expect(Buffer.from(await store.read('data.bin', 10, 20))).toEqual(DATA.subarray(10, 20));
  expect(store.bytesRead).toBe(10);
  expect(Buffer.from(await store.read('data.bin', -8))).toEqual(DATA.subarray(92));
  expect(store.bytesRead).toBe(18);
  expect(Buffer.from(await store.read('data.bin', -20, -8))).toEqual(DATA.subarray(80, 92));
  expect(Buffer.from(await store.read('data.bin', 95, 1000))).toEqual(DATA.subarray(95));
  expect(await store.read('data.bin', 200)).toHaveLength(0);
  expect(await store.read('data.bin', 30, 30)).toHaveLength(0);
  expect(store.bytesRead).toBe(18 + 12 + 5);
}
