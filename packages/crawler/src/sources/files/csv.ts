// CSV and other delimited text: a bounded sample (SAMPLE_BYTES, SAMPLE_ROWS), parsed by csv-parse.
// Delimiter, header and column types are inferred by the rules docs/crawler.md lists under "Files".
import { parse } from 'csv-parse/sync';
import type { FileStore, StoredFile } from './file-store.js';
import { node, spellType, type FileSchema } from './file-schema.js';
import { ColumnSample, inferCell } from './infer.js';
import { readTextSample } from './text-sample.js';
import type { Widening } from './widen.js';

/** Rows typed per file (the header not counted). */
export const SAMPLE_ROWS = 1000;
const DELIMITERS = [',', ';', '\t', '|'];
const PREFERRED: Record<string, string> = { tsv: '\t', tab: '\t', psv: '|' };

export async function readCsv(store: FileStore, file: StoredFile, signal?: AbortSignal): Promise<FileSchema> {
  const sample = await readTextSample(store, file, signal);
  const extension = /\.([a-z]+)(\.gz)?$/i.exec(file.path)?.[1]?.toLowerCase() ?? '';
  const delimiter = detectDelimiter(sample.text, PREFERRED[extension]);
  const records = parseRecords(sample.text, delimiter, sample.complete);
  if (records.length === 0) throw new Error('empty: no header and no rows');
  const first = records[0];
  const header = hasHeader(records);
  const rows = header ? records.slice(1) : records;
  const width = Math.max(first.length, ...rows.map((row) => row.length));
  const names = columnNames(header ? first : [], width);
  const how: Widening = { loose: true, mixed: [] };
  const samples = names.map(() => new ColumnSample());
  for (const row of rows) {
    samples.forEach((sample, index) => sample.add(inferCell(row[index] ?? ''), how, names[index]));
  }
  const notes = [...sample.notes];
  if (rows.some((row) => row.length !== width))
    notes.push(`rows of different lengths in the sample: ${width} columns kept`);
  return {
    columns: names.map((name, index) => {
      // A column without a single value in the sample is text: nothing says otherwise.
      const { type: sampled, nullable } = samples[index];
      const type = sampled.data_type === 'null' ? node('utf8') : sampled;
      return { name, native_type: spellType(type), type, nullable: nullable || rows.length === 0 };
    }),
    compression: sample.compression,
    notes,
  };
}

function parseRecords(text: string, delimiter: string, complete: boolean): string[][] {
  let body = text;
  for (;;) {
    try {
      return parse(body, {
        delimiter,
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: true,
        to: SAMPLE_ROWS + 1,
      });
    } catch (error) {
      // A quoted field cut by the sample's end: drop the last line and try again.
      const cut = body.lastIndexOf('\n', body.length - 2);
      if (complete || cut <= 0)
        throw new Error(`not readable as CSV: ${(error as Error).message}`, { cause: error });
      body = body.slice(0, cut + 1);
    }
  }
}

/** The candidate whose first rows most often share one field count above 1; `preferred` wins ties. */
export function detectDelimiter(text: string, preferred: string | undefined): string {
  const head = text.slice(0, 64 * 1024);
  const candidates =
    preferred === undefined ? DELIMITERS : [preferred, ...DELIMITERS.filter((d) => d !== preferred)];
  let best = { delimiter: preferred ?? ',', score: 0 };
  for (const delimiter of candidates) {
    let records: string[][];
    try {
      records = parse(head, {
        delimiter,
        relax_column_count: true,
        skip_empty_lines: true,
        to: 50,
      });
    } catch {
      continue;
    }
    const counts = new Map<number, number>();
    for (const record of records) counts.set(record.length, (counts.get(record.length) ?? 0) + 1);
    let score = 0;
    for (const [fields, rows] of counts) if (fields > 1) score = Math.max(score, rows * 1000 + fields);
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

/**
 * The first row is a header unless one of its cells has a non-text type (a number, a boolean, a date);
 * when every cell is text, it is a header if some column's values below are not text, or if its cells
 * are distinct and non-empty.
 */
export function hasHeader(records: string[][]): boolean {
  const [first, ...rest] = records;
  if (first.some((cell) => !['utf8', 'null'].includes(inferCell(cell).data_type))) return false;
  const typed = first.some((_, index) => {
    const how: Widening = { loose: true, mixed: [] };
    const sample = new ColumnSample();
    rest.forEach((row) => sample.add(inferCell(row[index] ?? ''), how, ''));
    return !['utf8', 'null'].includes(sample.type.data_type);
  });
  return typed || (first.every((cell) => cell.trim() !== '') && new Set(first).size === first.length);
}

/** Header names; missing ones `column_<n>`, repeated ones suffixed `_<n>` (n = the 1-based position). */
function columnNames(header: string[], width: number): string[] {
  const seen = new Set<string>();
  return Array.from({ length: width }, (_, index) => {
    const raw = (header[index] ?? '').trim();
    const name = raw === '' ? `column_${index + 1}` : seen.has(raw) ? `${raw}_${index + 1}` : raw;
    seen.add(name);
    return name;
  });
}
