// The text form of an inspection, for people: a header, then each table with its columns (native
// type → normalised type, nullability, default, identity, comments) and its keys, indexes, checks
// and partitions, then what could not be mapped.
import { quoteName, renderTypeNode } from '@aide/schemas/version-changes';
import type {
  InspectedColumn,
  InspectedDatabase,
  InspectedTable,
  SourceProblem,
  TableKind,
} from '../model.js';

// The type text and name quoting are the classifier's (`@aide/schemas`), so reports and change reasons
// print types alike.
export { quoteName, renderTypeNode };

const KIND_LABELS: Record<TableKind, [string, string]> = {
  table: ['table', 'tables'],
  partitioned_table: ['partitioned table', 'partitioned tables'],
  view: ['view', 'views'],
  materialized_view: ['materialized view', 'materialized views'],
  foreign_table: ['foreign table', 'foreign tables'],
};

const MAX_ALIGN = 40;

const qualified = (schema: string, name: string) => `${quoteName(schema)}.${quoteName(name)}`;

/** A dataset as people name it: `schema.table` for a database table, else its object_name (a path, a topic). */
export function displayName(ref: {
  kind?: string;
  object_name: string;
  schema: string;
  table: string;
}): string {
  return ref.kind === undefined || ref.kind === 'rdbms' ? qualified(ref.schema, ref.table) : ref.object_name;
}
const list = (names: readonly string[]) => names.map(quoteName).join(', ');
const plural = (n: number, [one, many]: [string, string]) => `${n} ${n === 1 ? one : many}`;

export function renderText(db: InspectedDatabase): string {
  const lines: string[] = [];
  const { summary } = db;
  const database = db.database === '' ? '' : ` · database ${db.database}`;
  lines.push(`${db.server.product} ${db.server.version}${database} · flavor ${db.flavor}`);
  lines.push(`Schemas (${db.schemas.length}): ${db.schemas.length > 0 ? list(db.schemas) : '(none)'}`);
  const kinds = (Object.keys(KIND_LABELS) as TableKind[])
    .filter((kind) => summary.tables[kind] > 0)
    .map((kind) => plural(summary.tables[kind], KIND_LABELS[kind]));
  lines.push(
    `Found: ${kinds.length > 0 ? kinds.join(', ') : 'no tables'} · ${plural(summary.columns, ['column', 'columns'])}` +
      ` · ${plural(summary.catalog_queries, ['catalog query', 'catalog queries'])}`,
  );
  for (const table of db.tables) {
    lines.push('', ...tableLines(table));
  }
  lines.push('');
  if (db.unmapped_types.length > 0) {
    lines.push(`Unmapped types (${summary.unmapped_columns} columns):`);
    for (const t of db.unmapped_types)
      lines.push(`  ${t.native_type} (${plural(t.columns, ['column', 'columns'])})`);
  } else {
    lines.push('Unmapped types: none');
  }
  if (db.approximate_types.length > 0) {
    lines.push('Approximately mapped types:');
    for (const t of db.approximate_types) {
      lines.push(`  ${t.native_type} → ${t.data_type} (${plural(t.columns, ['column', 'columns'])})`);
    }
  }
  if (db.problems !== undefined) {
    lines.push(...(db.problems.length === 0 ? ['Problems: none'] : problemLines(db.problems)));
  }
  return `${lines.join('\n')}\n`;
}

/** What a source could not read, one line each: the path and the reason. */
export function problemLines(problems: readonly SourceProblem[]): string[] {
  return [
    `Problems (${problems.length}, not read; the crawl went on):`,
    ...problems.map((p) => `  ${p.path}: ${oneLine(p.reason)}`),
  ];
}

function tableLines(table: InspectedTable): string[] {
  const { placement } = table;
  const what = placement === undefined ? KIND_LABELS[table.kind][0] : `${placement.kind} dataset`;
  const name = placement === undefined ? qualified(table.schema, table.name) : placement.object_name;
  const header = `${name}  ${what}, ${plural(table.columns.length, ['column', 'columns'])}`;
  const lines = [table.comment === null ? header : `${header} -- ${oneLine(table.comment)}`];
  if (placement !== undefined) {
    const attributes = Object.entries(placement.attributes).map(([k, v]) => `${k} ${JSON.stringify(v)}`);
    const flavor = placement.flavor === undefined ? [] : [`flavor ${placement.flavor}`];
    lines.push(`  ${[...attributes, ...flavor].join(', ')}`);
  }
  if (table.partition_of !== null) {
    const bound = table.partition_of.bound === null ? '' : ` ${table.partition_of.bound}`;
    lines.push(`  partition of ${qualified(table.partition_of.schema, table.partition_of.name)}${bound}`);
  }
  // Aligned columns, but one very long type (a composite) does not push every line to the right.
  const nameWidth = Math.min(MAX_ALIGN, Math.max(0, ...table.columns.map((c) => quoteName(c.name).length)));
  const typeWidth = Math.min(MAX_ALIGN, Math.max(0, ...table.columns.map((c) => typeText(c).length)));
  for (const column of table.columns) {
    lines.push(
      `  ${quoteName(column.name).padEnd(nameWidth)}  ${typeText(column).padEnd(typeWidth)}  ${columnDetails(column)}`.trimEnd(),
    );
  }
  if (table.primary_key !== null) {
    lines.push(`  primary key ${constraintName(table.primary_key.name)}(${list(table.primary_key.columns)})`);
  }
  for (const unique of table.unique_constraints) {
    lines.push(`  unique ${constraintName(unique.name)}(${list(unique.columns)})`);
  }
  for (const fk of table.foreign_keys) {
    const actions = [
      fk.on_update === 'NO ACTION' ? '' : ` on update ${fk.on_update}`,
      fk.on_delete === 'NO ACTION' ? '' : ` on delete ${fk.on_delete}`,
    ].join('');
    lines.push(
      `  foreign key ${constraintName(fk.name)}(${list(fk.columns)}) → ` +
        `${qualified(fk.referenced.schema, fk.referenced.table)} (${list(fk.referenced.columns)})${actions}`,
    );
  }
  for (const index of table.indexes) {
    const key = index.columns !== null ? list(index.columns) : (index.expression ?? '');
    const include = index.include.length > 0 ? ` include (${list(index.include)})` : '';
    const where = index.predicate === null ? '' : ` where ${index.predicate}`;
    const method = index.method === null ? '' : ` ${index.method}`;
    lines.push(
      `  ${index.unique ? 'unique index' : 'index'} ${quoteName(index.name)}${method} (${key})${include}${where}`,
    );
  }
  for (const check of table.check_constraints) {
    lines.push(`  check ${constraintName(check.name)}${check.expression}`);
  }
  if (table.partition_key !== null) lines.push(`  partition key ${table.partition_key}`);
  for (const partition of table.partitions) {
    const bound = partition.bound === null ? '' : ` ${partition.bound}`;
    lines.push(`  partition ${qualified(partition.schema, partition.name)}${bound}`);
  }
  if (table.view_definition !== null) {
    lines.push(`  definition: ${oneLine(table.view_definition)}`);
  }
  return lines;
}

function typeText(column: InspectedColumn): string {
  const mapped = column.type === null ? 'UNMAPPED' : renderTypeNode(column.type);
  const native = column.domain === null ? column.native_type : `${column.native_type} (domain)`;
  return `${native} → ${mapped}`;
}

function columnDetails(column: InspectedColumn): string {
  const parts = [column.nullable ? 'NULL' : 'NOT NULL'];
  if (column.identity !== null) parts.push(`identity ${column.identity.replace('_', ' ')}`);
  if (column.generated !== null) {
    parts.push(
      `generated ${column.generated.stored ? 'stored' : 'virtual'} as ${column.generated.expression}`,
    );
  }
  if (column.default !== null) parts.push(`default ${column.default}`);
  if (column.on_update !== null) parts.push(`on update ${column.on_update}`);
  if (column.collation !== null) parts.push(`collate ${column.collation}`);
  if (column.comment !== null) parts.push(`-- ${oneLine(column.comment)}`);
  return parts.join('  ');
}

function constraintName(name: string | null): string {
  return name === null ? '' : `${quoteName(name)} `;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
