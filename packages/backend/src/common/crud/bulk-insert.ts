import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';

/** The SQL type a column's values are read as from the JSON rows. */
function sqlTypeOf(column: ColumnMetadata): string {
  const type = typeof column.type === 'string' ? column.type : '';
  if (
    column.isArray ||
    !['uuid', 'text', 'varchar', 'jsonb', 'integer', 'boolean', 'timestamptz'].includes(type)
  ) {
    throw new Error(`bulkInsert: column ${column.databaseName} (${String(type)}) is not supported`);
  }
  return type;
}

/**
 * One INSERT of any number of rows, sent as one JSON array and read by `json_to_recordset`: the
 * statement has a single parameter whatever the number of rows (a multi-row VALUES list has one per
 * value, and PostgreSQL takes at most 65,535: about 4,000 bindings), and the rows are serialised by
 * `JSON.stringify` instead of one array literal per column.
 *
 * Every row gives the same columns; a column a row leaves out takes the entity's literal default, and
 * columns no row gives take the table's defaults. A jsonb value is written as itself, null as SQL NULL
 * (as TypeORM writes it).
 */
export async function bulkInsert<E extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<E>,
  rows: readonly Partial<E>[],
): Promise<void> {
  if (rows.length === 0) return;
  const metadata = manager.connection.getMetadata(entity);
  const given = new Set(rows.flatMap((row) => Object.keys(row)));
  const columns = metadata.columns.filter((c) => given.has(c.propertyName));
  const records = rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (const column of columns) {
      let value: unknown = row[column.propertyName as keyof E];
      if (value === undefined) {
        if (column.default === undefined || typeof column.default === 'function') {
          throw new Error(`bulkInsert: a row has no ${column.propertyName}, which has no literal default`);
        }
        value = column.default;
      }
      record[column.databaseName] = value;
    }
    return record;
  });
  const names = columns.map((c) => `"${c.databaseName}"`).join(', ');
  const types = columns.map((c) => `"${c.databaseName}" ${sqlTypeOf(c)}`).join(', ');
  await manager.query(
    `INSERT INTO "${metadata.tableName}" (${names}) SELECT ${names} FROM json_to_recordset($1::json) AS r(${types})`,
    [JSON.stringify(records)],
  );
}
