// The JSON documents are written in pieces (ADRs 0041, 0060): joined, the pieces must be exactly the
// text of JSON.stringify(value) (compact) or JSON.stringify(value, null, 2) (pretty), whatever the
// shape; and written to a file or stdout, the same text.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { writeJsonOutput } from '../src/commands/shared.js';
import { CrawlerError } from '../src/errors.js';
import { jsonPieces, type JsonLayout } from '../src/output/json.js';

const tmp = mkdtempSync(join(tmpdir(), 'aide-crawler-json-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** An inspection-like document: `tables` long enough to be cut into several batches. */
function document(tables: number) {
  return {
    format: 'aide-crawler.inspection',
    format_version: 1,
    server: { product: 'PostgreSQL', version: '15.2' },
    filters: { schemas: [], tables: ['a*', 'quote"d'] },
    schemas: ['public', 'sales'],
    missing: undefined,
    tables: Array.from({ length: tables }, (_, i) => ({
      schema: i % 2 === 0 ? 'public' : 'sales',
      name: `t${i}\n"ünïcode" ✓`,
      comment: i % 3 === 0 ? null : `table ${i}`,
      columns: [
        { name: 'id', type: { data_type: 'bigint', params: {} }, nullable: false, default: undefined },
        { name: 'tags', type: { data_type: 'array', children: [{ slot: 'element', type: null }] } },
      ],
      partitions: [],
      primary_key: i % 5 === 0 ? null : { name: `t${i}_pkey`, columns: ['id'] },
      nested: { deeper: { deepest: [1, [2, [3, {}]], []] } },
    })),
    unmapped_types: [],
    summary: { tables: { table: tables }, empty: {}, ratio: 0.5, big: 1e21 },
  };
}

const joined = (value: unknown, layout: JsonLayout) => [...jsonPieces(value, layout)].join('');

describe('JSON output in pieces', () => {
  const shapes: [string, unknown][] = [
    ['an inspection of 250 tables', document(250)],
    ['an empty document', {}],
    ['an empty array', []],
    ['a top-level array of objects', [{ a: 1 }, { b: [{ c: null }] }, [], [undefined, () => 1]]],
    ['a scalar', 'text'],
    ['null', null],
    ['an object with a Date and undefined members', { at: new Date(0), gone: undefined, f: () => 1 }],
    ['a null-prototype object', Object.assign(Object.create(null) as object, { k: [1, 2] })],
  ];

  it.each(shapes)('gives the text of JSON.stringify(value, null, 2) for %s, pretty', (_name, value) => {
    expect(joined(value, 'pretty')).toBe(JSON.stringify(value, null, 2));
  });

  it.each(shapes)('gives the text of JSON.stringify(value) for %s, compact', (_name, value) => {
    expect(joined(value, 'compact')).toBe(JSON.stringify(value));
  });

  it('cuts a large array into several pieces', () => {
    expect([...jsonPieces(document(250), 'pretty')].length).toBeGreaterThan(10);
    expect([...jsonPieces(document(250), 'compact')].length).toBeGreaterThan(10);
  });

  it.each([
    ['compact', (value: unknown) => JSON.stringify(value)],
    ['pretty', (value: unknown) => JSON.stringify(value, null, 2)],
  ] as const)('writes the same text, %s, and a final newline, to a file and to stdout', (layout, text) => {
    const value = document(120);
    const file = join(tmp, `doc-${layout}.json`);
    let stdout = '';
    let stderr = '';
    const io = { stdout: (s: string) => (stdout += s), stderr: (s: string) => (stderr += s), env: {} };
    writeJsonOutput(file, value, 'Inspection', io, layout);
    writeJsonOutput(undefined, value, 'Inspection', io, layout);
    const expected = `${text(value)}\n`;
    expect(readFileSync(file, 'utf8')).toBe(expected);
    expect(stdout).toBe(expected);
    expect(stderr).toBe(`Inspection written to ${file}\n`);
  });

  it('reports a file it cannot write as a one-line CrawlerError', () => {
    const io = { stdout: () => undefined, stderr: () => undefined, env: {} };
    const missing = join(tmp, 'no-such-dir', 'doc.json');
    expect(() => writeJsonOutput(missing, { a: 1 }, 'Report', io, 'compact')).toThrow(CrawlerError);
    expect(() => writeJsonOutput(missing, { a: 1 }, 'Report', io, 'compact')).toThrow(
      `cannot write ${missing}`,
    );
  });
});
