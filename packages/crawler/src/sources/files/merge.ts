// The schema of a dataset of many files: the union of their columns in order of first appearance,
// each column's type widened across files (widen.ts; strict for Parquet and Avro, loose for inferred
// CSV/JSON-lines types). A column missing from some file is nullable. A type that cannot be widened is
// a conflict: the dataset keeps the type seen first, and the file is reported — never silently dropped.
import type { SourceProblem } from '../../model.js';
import type { FileColumn } from './file-schema.js';
import { sameType, widen, type Widening } from './widen.js';

export class SchemaMerger {
  private readonly columns: FileColumn[] = [];
  private readonly index = new Map<string, number>();
  private readonly seenSignatures = new Set<string>();
  private first: string | null = null;

  constructor(private readonly loose: boolean) {}

  /** Adds one file's columns; returns the conflicts with what was merged before. */
  add(path: string, columns: FileColumn[]): SourceProblem[] {
    // Files of one table usually share one schema: merging it once is enough.
    const signature = columns.map((c) => `${c.name}\u0000${c.native_type}\u0000${c.nullable}`).join('\u0001');
    if (this.seenSignatures.has(signature)) {
      this.markMissing(columns);
      return [];
    }
    this.seenSignatures.add(signature);
    if (this.first === null) {
      this.first = path;
      columns.forEach((column) => this.append(column, false));
      return [];
    }
    const problems: SourceProblem[] = [];
    for (const column of columns) {
      const at = this.index.get(column.name);
      if (at === undefined) {
        this.append(column, true);
        continue;
      }
      const merged = this.columns[at];
      merged.nullable ||= column.nullable;
      if (merged.type === null || column.type === null) {
        if (merged.native_type !== column.native_type)
          problems.push(conflict(path, column, merged, this.first));
        continue;
      }
      if (sameType(merged.type, column.type)) continue;
      const how: Widening = { loose: this.loose, mixed: [] };
      const wide = widen(merged.type, column.type, how, column.name);
      if (wide === null) {
        problems.push(conflict(path, column, merged, this.first));
        continue;
      }
      if (sameType(wide, column.type)) merged.native_type = column.native_type;
      else if (!sameType(wide, merged.type))
        merged.native_type = `${merged.native_type} | ${column.native_type}`;
      merged.type = wide;
      merged.approximate = merged.approximate === true || column.approximate === true || undefined;
    }
    this.markMissing(columns);
    return problems;
  }

  result(): FileColumn[] {
    return this.columns;
  }

  private append(column: FileColumn, later: boolean): void {
    this.index.set(column.name, this.columns.length);
    // A column absent from files merged before it is nullable.
    this.columns.push({ ...column, nullable: column.nullable || later });
  }

  /** Columns of earlier files that this file lacks become nullable. */
  private markMissing(columns: FileColumn[]): void {
    const names = new Set(columns.map((c) => c.name));
    for (const column of this.columns) if (!names.has(column.name)) column.nullable = true;
  }
}

function conflict(path: string, column: FileColumn, merged: FileColumn, first: string | null): SourceProblem {
  return {
    path,
    reason: `column ${column.name}: ${column.native_type} here, ${merged.native_type} in ${first ?? 'the first file'}; no type holds both, the dataset keeps ${merged.native_type}`,
  };
}
