// The registry's Parquet translation (backend renderers/parquet.ts, issue 25 §2) read back by this
// crawler: the message type the backend writes is parsed (its strict notation parser), a real Parquet
// file is written with that schema (hyparquet-writer), and the files source's footer reader must find
// the storage_files types the translation started from. The backend must be built (dist).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { TypeNode } from '../src/model.js';
import { LocalFileStore } from '../src/sources/files/local-store.js';
import { readParquet } from '../src/sources/files/parquet.js';

// The backend's renderer, loaded from its build at run time (its test script builds it first), so that
// this package's typecheck does not depend on the backend's dist. The shapes used here, by hand:
interface TranslatedType {
  code: string;
  params: Record<string, unknown>;
  rendered: string | null;
  children: { slot: string | null; type: TranslatedType; nullable: boolean }[];
}
interface Omission {
  kind: string;
  path: string | null;
  reason: string;
}
interface Renderers {
  renderParquet(table: unknown, omissions: { items: Omission[] }): string;
  parseMessageType(text: string): unknown[];
  Omissions: new () => { items: Omission[] };
}

const BACKEND_DIST = join(dirname(fileURLToPath(import.meta.url)), '../../backend/dist/modules/translations');
const load = async (file: string): Promise<Record<string, unknown>> =>
  (await import(pathToFileURL(join(BACKEND_DIST, file)).href)) as Record<string, unknown>;
let backend: Renderers;

type WriterSchema = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>;

/** A storage_files type; children as [slot, type, nullable]. */
function t(
  code: string,
  params: Record<string, unknown> = {},
  children: [string, TranslatedType, boolean][] = [],
): TranslatedType {
  return {
    code,
    params,
    rendered: null,
    children: children.map(([slot, type, nullable]) => ({ slot, type, nullable })),
  };
}

/** What the crawler reads for a translated type: the same tree in its TypeNode shape. */
function node(type: TranslatedType): TypeNode {
  const result: TypeNode = { data_type: type.code };
  if (Object.keys(type.params).length > 0) result.params = type.params as TypeNode['params'];
  if (type.children.length > 0)
    result.children = type.children.map((child) => ({ slot: child.slot!, type: node(child.type) }));
  return result;
}

// Types the file holds exactly as given: the reader must find each one again.
const EXACT: TranslatedType[] = [
  t('boolean'),
  t('int8'),
  t('int16'),
  t('int32'),
  t('int64'),
  t('uint8'),
  t('uint16'),
  t('uint32'),
  t('uint64'),
  t('float16'),
  t('float32'),
  t('float64'),
  t('decimal', { precision: 5, scale: 2 }),
  t('decimal', { precision: 18, scale: 0 }),
  t('decimal', { precision: 38, scale: 10 }),
  t('date32'),
  t('time32', { unit: 'ms' }),
  t('time64', { unit: 'us' }),
  t('time64', { unit: 'ns' }),
  t('timestamp', { unit: 'ms', timezone: 'UTC' }),
  t('timestamp', { unit: 'us' }),
  t('timestamp', { unit: 'ns', timezone: 'UTC' }),
  t('utf8'),
  t('binary'),
  t('fixed_size_binary', { byte_width: 7 }),
  t('uuid'),
  t('json'),
  t('list', {}, [['item', t('utf8'), true]]),
  t('map', {}, [
    ['key', t('utf8'), false],
    ['value', t('int64'), true],
  ]),
  t('struct', {}, [
    ['field:a', t('int32'), false],
    ['field:b', t('list', {}, [['item', t('float64'), false]]), true],
  ]),
];

let folder: string;
beforeAll(async () => {
  backend = {
    ...(await load('renderers/parquet.js')),
    ...(await load('renderers/parquet-message-type.js')),
    ...(await load('translated-table.js')),
  } as unknown as Renderers;
  folder = await mkdtemp(join(tmpdir(), 'aide-translation-parquet-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function roundTrip(types: TranslatedType[], nullable: boolean) {
  const omissions = new backend.Omissions();
  const text = backend.renderParquet(
    {
      name: 'translated',
      namespace: null,
      comment: null,
      target_flavor: 'storage_files',
      columns: types.map((type, index) => ({
        name: `c${index}`,
        nullable,
        type,
        default: null,
        comment: null,
        source_type: null,
        native_type: null,
        fidelity: 'exact' as const,
        loss: [],
      })),
      primary_key: null,
      unique_constraints: [],
      foreign_keys: [],
      partition_columns: [],
    },
    omissions,
  );
  const schema = backend.parseMessageType(text);
  const columnData = types.map((_, index) => ({ name: `c${index}`, data: [] }));
  const buffer = parquetWriteBuffer({ columnData, schema: schema as WriterSchema });
  const path = join(folder, `t${nullable ? 'n' : 'r'}.parquet`);
  await writeFile(path, new Uint8Array(buffer));
  const store = await LocalFileStore.open(path);
  try {
    const files = [];
    for await (const file of store.list()) files.push(file);
    return { omissions: omissions.items, columns: (await readParquet(store, files[0])).columns };
  } finally {
    await store.close();
  }
}

describe('a Parquet translation read back by the files source', () => {
  it.each([true, false])('finds every storage_files type again (nullable %s)', async (nullable) => {
    const { omissions, columns } = await roundTrip(EXACT, nullable);
    expect(omissions).toEqual([]);
    expect(
      columns.map((column) => ({ name: column.name, type: column.type, nullable: column.nullable })),
    ).toEqual(EXACT.map((type, index) => ({ name: `c${index}`, type: node(type), nullable })));
  });

  it('reads the types Parquet spells another way as their nearest, and reports the lost ones', async () => {
    const { omissions, columns } = await roundTrip(
      [
        t('large_utf8'),
        t('large_binary'),
        t('date64'),
        t('time32', { unit: 's' }),
        t('timestamp', { unit: 's' }),
        t('timestamp', { unit: 'us', timezone: 'Europe/Paris' }),
        t('large_list', {}, [['item', t('int64'), true]]),
        t('duration', { unit: 'ms' }),
      ],
      true,
    );
    expect(columns.map((column) => column.type)).toEqual([
      { data_type: 'utf8' },
      { data_type: 'binary' },
      { data_type: 'date32' },
      { data_type: 'time32', params: { unit: 'ms' } },
      { data_type: 'timestamp', params: { unit: 'ms' } },
      { data_type: 'timestamp', params: { unit: 'us', timezone: 'UTC' } },
      { data_type: 'list', children: [{ slot: 'item', type: { data_type: 'int64' } }] },
      { data_type: 'int64' },
    ]);
    expect(omissions.map((omission) => [omission.kind, omission.path])).toEqual([
      ['column', 'c5'],
      ['column', 'c7'],
    ]);
  });
});
