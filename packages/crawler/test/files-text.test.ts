// CSV and JSON lines: a bounded sample read, delimiter, header, encoding and compression detected,
// types inferred by the rules of docs/crawler.md ("Files").
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { InspectedDatabase } from '../src/model.js';
import { inferCell } from '../src/sources/files/infer.js';
import { SAMPLE_BYTES } from '../src/sources/files/text-sample.js';
import { column, inspectPath, LAKE, table } from './helpers/files.js';

let lake: InspectedDatabase;
const scratch = mkdtempSync(join(tmpdir(), 'aide-crawler-text-'));
beforeAll(async () => {
  lake = await inspectPath(LAKE);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const summary = (name: string) => table(lake, name).columns.map((c) => [c.name, c.native_type, c.nullable]);

describe('CSV', () => {
  it('a UTF-8 file with a BOM, a header and quoted fields: every inferred type', () => {
    expect(summary('customers.csv')).toEqual([
      ['id', 'int64', false],
      ['name', 'utf8', false], // "Doe, Jane" and "Smith ""Jr""" are one field each
      ['balance', 'float64', false],
      ['active', 'boolean', false],
      ['joined', 'date32', false],
      ['last_seen', 'timestamp(us, UTC)', false],
      ['zip', 'utf8', false], // 01234: a leading zero is an identifier
      ['note', 'utf8', true], // a quoted line break, and an empty cell
    ]);
    expect(column(table(lake, 'customers.csv'), 'last_seen').type).toEqual({
      data_type: 'timestamp',
      params: { unit: 'us', timezone: 'UTC' },
    });
  });

  it('detects semicolons, tabs and pipes, a missing header, UTF-16 and gzip', () => {
    expect(summary('no_header.csv')).toEqual([
      ['column_1', 'int64', false],
      ['column_2', 'date32', false],
      ['column_3', 'utf8', true],
    ]);
    expect(summary('utf16.tsv')).toEqual([
      ['city', 'utf8', false],
      ['population', 'int64', false],
    ]);
    expect(summary('latin1.psv.gz')).toEqual([
      ['nom', 'utf8', false],
      ['ville', 'utf8', false],
    ]);
    expect(table(lake, 'latin1.psv.gz').placement?.attributes).toMatchObject({
      file_format: 'csv',
      compression: 'gzip',
    });
    expect(lake.problems).toContainEqual({
      path: 'latin1.psv.gz',
      reason: 'not valid UTF-8 and no byte-order mark: read as ISO-8859-1',
    });
  });

  it('reads only a bounded sample of a large file, a quoted field cut by the bound included', async () => {
    const rows = ['id,comment'];
    for (let i = 0, length = 0; length < SAMPLE_BYTES * 2; i++) {
      rows.push(`${i},"multi\nline ${i}"`);
      length += rows[rows.length - 1].length + 1;
    }
    rows.push('not-a-number,x');
    writeFileSync(join(scratch, 'big.csv'), rows.join('\n'));
    const inspection = await inspectPath(join(scratch, 'big.csv'));
    // The last row (beyond the sample) would have made id utf8.
    expect(inspection.tables[0].columns.map((c) => [c.name, c.native_type])).toEqual([
      ['id', 'int64'],
      ['comment', 'utf8'],
    ]);
    expect(inspection.problems).toEqual([]);
  });

  it('infers cells by the documented rules', () => {
    const cases: [string, unknown][] = [
      ['', { data_type: 'null' }],
      ['42', { data_type: 'int64' }],
      ['-9223372036854775808', { data_type: 'int64' }],
      ['9223372036854775808', { data_type: 'decimal', params: { precision: 19, scale: 0 } }],
      ['123456789012345678901234', { data_type: 'decimal', params: { precision: 24, scale: 0 } }],
      ['007', { data_type: 'utf8' }],
      ['3.14', { data_type: 'float64' }],
      ['1e-3', { data_type: 'float64' }],
      ['True', { data_type: 'boolean' }],
      ['2026-02-29', { data_type: 'utf8' }], // not a date
      ['2028-02-29', { data_type: 'date32' }],
      ['2026-01-02 03:04:05', { data_type: 'timestamp', params: { unit: 'us' } }],
      [
        '2026-01-02T03:04:05.123456789+01:00',
        { data_type: 'timestamp', params: { unit: 'ns', timezone: 'UTC' } },
      ],
      ['hello', { data_type: 'utf8' }],
    ];
    for (const [cell, type] of cases) expect([cell, inferCell(cell)]).toEqual([cell, type]);
  });
});

describe('JSON lines', () => {
  it('objects are structs, arrays lists, ISO strings dates and timestamps, mixed types utf8 with a reason', () => {
    const clicks = table(lake, 'clicks.jsonl');
    expect(clicks.columns.map((c) => [c.name, c.native_type, c.nullable])).toEqual([
      ['id', 'int64', false],
      ['user', 'struct<name: utf8, langs: list<utf8>, vip: boolean>', true],
      ['at', 'timestamp(us, UTC)', true],
      ['price', 'float64', true], // 1 and 2.5: widened to float64
      ['tags', 'list<int64>', true],
      ['misc', 'utf8', false],
      ['extra', 'utf8', true], // only null in the sample
      ['day', 'date32', true], // missing from the first lines
    ]);
    expect(column(clicks, 'user').type).toEqual({
      data_type: 'struct',
      children: [
        { slot: 'field:name', type: { data_type: 'utf8' } },
        {
          slot: 'field:langs',
          type: { data_type: 'list', children: [{ slot: 'item', type: { data_type: 'utf8' } }] },
        },
        { slot: 'field:vip', type: { data_type: 'boolean' } },
      ],
    });
    expect(lake.problems).toContainEqual({
      path: 'clicks.jsonl',
      reason: 'misc: mixed types in the sample, typed utf8',
    });
  });

  it('reports lines that are not JSON objects, and gzipped files are read', async () => {
    const lines = ['{"a": 1}', 'garbage', '{"a": 2, "b": [1.5]}', '[1]'].join('\n');
    writeFileSync(join(scratch, 'events.ndjson.gz'), gzipSync(lines));
    const inspection = await inspectPath(join(scratch, 'events.ndjson.gz'));
    expect(inspection.tables[0].columns.map((c) => [c.name, c.native_type, c.nullable])).toEqual([
      ['a', 'int64', false],
      ['b', 'list<float64>', true],
    ]);
    expect(inspection.tables[0].placement?.attributes).toMatchObject({
      file_format: 'jsonl',
      compression: 'gzip',
    });
    expect(inspection.problems).toEqual([
      {
        path: 'events.ndjson.gz',
        reason: expect.stringMatching(/^line 2 is not JSON: /) as unknown as string,
      },
      { path: 'events.ndjson.gz', reason: '2 of 4 sampled lines skipped' },
    ]);
  });
});
