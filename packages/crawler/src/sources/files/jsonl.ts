// JSON lines (`.jsonl`, `.ndjson`, `.json` as Spark writes it): a bounded sample of lines, each a JSON
// value typed by the rules docs/crawler.md lists under "Files" — objects are structs, arrays lists,
// strings that are ISO dates or date-times are dates and timestamps, mixed types widen or become utf8.
import type { TypeNode } from '../../model.js';
import type { FileStore, StoredFile } from './file-store.js';
import { listOf, node, spellType, structOf, type FileSchema } from './file-schema.js';
import { ColumnSample, inferTemporal } from './infer.js';
import { readTextSample } from './text-sample.js';
import { widen, type Widening } from './widen.js';

export const SAMPLE_LINES = 1000;

export async function readJsonLines(
  store: FileStore,
  file: StoredFile,
  signal?: AbortSignal,
): Promise<FileSchema> {
  const sample = await readTextSample(store, file, signal);
  const lines = sample.text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .slice(0, SAMPLE_LINES);
  if (lines.length === 0) throw new Error('empty: no JSON lines');
  const how: Widening = { loose: true, mixed: [] };
  const columns = new Map<string, ColumnSample>();
  const notes = [...sample.notes];
  let bad = 0;
  let rows = 0;
  for (const [index, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (bad++ === 0) notes.push(`line ${index + 1} is not JSON: ${(error as Error).message}`);
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      if (bad++ === 0) notes.push(`line ${index + 1} is not a JSON object`);
      continue;
    }
    rows++;
    const seen = new Set<string>();
    for (const [name, field] of Object.entries(value)) {
      seen.add(name);
      if (!columns.has(name)) columns.set(name, Object.assign(new ColumnSample(), { nullable: rows > 1 }));
      columns.get(name)?.add(jsonType(field, how, name), how, name);
    }
    for (const [name, column] of columns) if (!seen.has(name)) column.nullable = true;
  }
  if (rows === 0) throw new Error(`not JSON lines: ${notes[0] ?? 'no object in the sample'}`);
  if (bad > 1) notes.push(`${bad} of ${lines.length} sampled lines skipped`);
  for (const path of new Set(how.mixed)) notes.push(`${path}: mixed types in the sample, typed utf8`);
  return {
    columns: [...columns].map(([name, { type: sampled, nullable }]) => {
      const type = sampled.data_type === 'null' ? node('utf8') : sampled;
      return { name, native_type: spellType(type), type, nullable };
    }),
    compression: sample.compression,
    notes,
  };
}

function jsonType(value: unknown, how: Widening, path: string): TypeNode {
  if (value === null) return node('null');
  switch (typeof value) {
    case 'boolean':
      return node('boolean');
    case 'number':
      return Number.isInteger(value) && Math.abs(value) < 2 ** 63 ? node('int64') : node('float64');
    case 'string':
      return inferTemporal(value);
    default:
      break;
  }
  if (Array.isArray(value)) {
    let item = node('null');
    for (const element of value)
      item = widen(item, jsonType(element, how, `${path}[]`), how, `${path}[]`) ?? node('utf8');
    return listOf(item);
  }
  return structOf(
    Object.entries(value as object).map(([name, field]) => ({
      name,
      type: jsonType(field, how, `${path}.${name}`),
    })),
  );
}
