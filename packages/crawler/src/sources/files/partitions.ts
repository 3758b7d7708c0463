// Partition columns of a Hive-style partitioned dataset (`dt=2026-12-01/country=FR/part-0.parquet`):
// one column per partition folder key, after the files' columns, typed from the folder values like a
// CSV column (int64, float64, boolean, date32, timestamp, else utf8); Hive's null partition makes it nullable.
import type { SourceProblem } from '../../model.js';
import { spellType, type FileColumn } from './file-schema.js';
import { ColumnSample, inferCell } from './infer.js';
import { NULL_PARTITION, type DatasetGroup } from './layout.js';
import type { Widening } from './widen.js';

export function partitionColumns(
  group: DatasetGroup,
  files: DatasetGroup['files'],
  fileColumns: FileColumn[],
  problems: SourceProblem[],
): FileColumn[] {
  return group.partition_by.map((key, position) => {
    const how: Widening = { loose: true, mixed: [] };
    const sample = new ColumnSample();
    for (const raw of new Set(files.map(({ partitions }) => partitions[position].value))) {
      sample.add(raw === NULL_PARTITION ? inferCell('') : inferCell(unescape(raw)), how, key);
    }
    if (fileColumns.some((column) => column.name === key)) {
      problems.push({
        path: group.object_name,
        reason: `partition key ${key} is also a column of the files: the folder value is the one readers see`,
      });
    }
    const type = sample.type.data_type === 'null' ? { data_type: 'utf8' } : sample.type;
    return {
      name: key,
      native_type: `${spellType(type)} (partition folder)`,
      type,
      nullable: sample.nullable,
    };
  });
}

/** Hive escapes special characters in partition values as %XX. */
function unescape(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
