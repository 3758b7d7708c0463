// The table as lakehouse DDL, one renderer per dialect: HiveQL for Hive 3.1 (hive3), Spark SQL for
// Delta Lake (spark_sql) and Spark SQL for Iceberg v2 tables (iceberg_v2). Names are backtick-quoted;
// a scalar type is the target flavor's rendered text (Iceberg's own spelling is mapped to Spark's);
// nested struct fields get names, and NOT NULL where the dialect can declare it. What a dialect cannot
// declare is reported. See docs/translation-formats.md.
import type { Omissions, TranslatedColumn, TranslatedTable, TranslatedType } from '../translated-table.js';
import {
  childIn,
  defaultLiteral,
  fieldsOf,
  isNullDefault,
  keyPath,
  paths,
  reportUnmapped,
} from './common.js';

/** A backtick-quoted identifier (a backtick inside is doubled). */
export function quoteName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/** A single-quoted string literal as Hive and Spark read it (backslash escapes). */
export function quoteString(text: string): string {
  const escaped = text
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t');
  return `'${escaped}'`;
}

interface Dialect {
  label: string;
  /** The list code of the flavor (`array`, Iceberg's `list`). */
  listCode: string;
  /** Whether a struct field can be declared NOT NULL (Spark's `a: int NOT NULL`). */
  nestedNotNull: boolean;
  /** Whether a column takes one constraint only (Hive's grammar: NOT NULL or DEFAULT, not both). */
  oneConstraint: boolean;
  /** Whether map keys must be primitive types (Hive's grammar). */
  primitiveMapKeys: boolean;
  /** Characters a column or field name cannot hold (Hive rejects `,` `:` `.`); null when none. */
  excludedInNames: RegExp | null;
  /** The type text of a non-container type; null (reported) when the dialect cannot declare it. */
  scalar(type: TranslatedType, path: string, omissions: Omissions): string | null;
  /** The column's DEFAULT clause for a literal the dialect takes; undefined when it cannot. */
  defaultClause(column: TranslatedColumn, typeText: string): string | undefined;
}

const CONTAINERS = new Set(['array', 'list', 'map', 'struct', 'uniontype']);

const NUMERIC =
  /^(tinyint|smallint|int|integer|bigint|byte|short|long|float|real|double|decimal|dec|numeric)\b/i;
const TEXT = /^(string|varchar|char)\b/i;

/** A literal default in the dialect's SQL: numbers, strings, booleans, DATE/TIMESTAMP strings. */
function literalDefault(column: TranslatedColumn, typeText: string): string | undefined {
  const literal = defaultLiteral(column.default);
  if (literal === null || literal.kind === 'null') return undefined;
  if (literal.kind === 'number') return NUMERIC.test(typeText) ? literal.text : undefined;
  if (literal.kind === 'boolean')
    return /^boolean$/i.test(typeText) ? String(literal.value).toUpperCase() : undefined;
  if (TEXT.test(typeText)) return quoteString(literal.value);
  if (/^date$/i.test(typeText) && /^\d{4}-\d{2}-\d{2}$/.test(literal.value))
    return `DATE ${quoteString(literal.value)}`;
  if (
    /^timestamp/i.test(typeText) &&
    /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(literal.value)
  )
    return `TIMESTAMP ${quoteString(literal.value)}`;
  return undefined;
}

/** The rendered text, or the code with the usual params when the flavor gave none. */
function renderedOrCode(type: TranslatedType): string {
  if (type.rendered !== null) return type.rendered;
  const p = type.params;
  if (typeof p.precision === 'number')
    return typeof p.scale === 'number'
      ? `${type.code}(${p.precision},${p.scale})`
      : `${type.code}(${p.precision})`;
  if (typeof p.length === 'number') return `${type.code}(${p.length})`;
  return type.code;
}

const HIVE: Dialect = {
  label: 'Hive',
  listCode: 'array',
  nestedNotNull: false,
  oneConstraint: true,
  primitiveMapKeys: true,
  excludedInNames: /[,:.]/g,
  scalar(type, path, omissions) {
    if (type.code === 'interval_year_month' || type.code === 'interval_day_time') {
      omissions.add(
        'column',
        path,
        `Hive does not store ${type.code} (expressions and views only): left out`,
      );
      return null;
    }
    if (type.code === 'timestamp_local_tz' && type.rendered === null) return 'timestamp with local time zone';
    return renderedOrCode(type);
  },
  defaultClause: literalDefault,
};

const SPARK_DELTA: Dialect = {
  label: 'Spark (Delta Lake)',
  listCode: 'array',
  nestedNotNull: true,
  oneConstraint: false,
  primitiveMapKeys: false,
  excludedInNames: null,
  scalar(type, path, omissions) {
    if (type.code === 'void' || type.code.endsWith('_interval')) {
      omissions.add('column', path, `Delta Lake does not store ${type.code}: left out`);
      return null;
    }
    return renderedOrCode(type);
  },
  defaultClause: literalDefault,
};

/** Iceberg types as Spark DDL declares them (Iceberg's Spark catalog maps them back). */
const ICEBERG_IN_SPARK: Record<string, string> = {
  boolean: 'boolean',
  int: 'int',
  long: 'bigint',
  float: 'float',
  double: 'double',
  date: 'date',
  timestamp: 'timestamp_ntz',
  timestamptz: 'timestamp',
  string: 'string',
  binary: 'binary',
};

const ICEBERG: Dialect = {
  label: 'Iceberg (Spark DDL)',
  listCode: 'list',
  nestedNotNull: true,
  oneConstraint: false,
  primitiveMapKeys: false,
  excludedInNames: null,
  scalar(type, path, omissions) {
    const simple = ICEBERG_IN_SPARK[type.code];
    if (simple !== undefined) return simple;
    switch (type.code) {
      case 'decimal':
        return `decimal(${Number(type.params.precision)},${Number(type.params.scale ?? 0)})`;
      case 'uuid':
        omissions.add(
          'column',
          path,
          'Spark DDL has no uuid type: declared string (Iceberg then stores a string)',
        );
        return 'string';
      case 'fixed':
        omissions.add(
          'column',
          path,
          `Spark DDL has no fixed(${String(type.params.length)}): declared binary`,
        );
        return 'binary';
      case 'time':
        omissions.add('column', path, 'Spark DDL cannot declare an Iceberg time column: left out');
        return null;
      default:
        omissions.add('column', path, `${type.code} is not an Iceberg type: left out`);
        return null;
    }
  },
  defaultClause: () => undefined,
};

class DdlWriter {
  /** Whether a DEFAULT clause was written (Delta needs a table feature for them). */
  defaultsWritten = false;

  constructor(
    private readonly dialect: Dialect,
    private readonly omissions: Omissions,
  ) {}

  /** The type's text: containers built here (names quoted, NOT NULL where the dialect has it). */
  type(type: TranslatedType, path: string): string | null {
    const code = type.code;
    if (code === this.dialect.listCode) {
      const element = childIn(type, 'element', 'item');
      if (element === null) return this.missing(type, path, 'element');
      const inner = this.type(element.type, paths.element(path));
      if (inner === null) return null;
      if (!element.nullable)
        this.omissions.add(
          'nullability',
          paths.element(path),
          `${this.dialect.label} DDL cannot declare array elements NOT NULL`,
        );
      return `array<${inner}>`;
    }
    if (code === 'map') {
      const key = childIn(type, 'key');
      const value = childIn(type, 'value');
      if (key === null) return this.missing(type, path, 'key');
      if (value === null) return this.missing(type, path, 'value');
      if (this.dialect.primitiveMapKeys && CONTAINERS.has(key.type.code)) {
        this.omissions.add(
          'column',
          path,
          `${this.dialect.label} map keys are primitive types: the map is left out`,
        );
        return null;
      }
      const keyText = this.type(key.type, paths.key(path));
      const valueText = this.type(value.type, paths.value(path));
      if (keyText === null || valueText === null) return null;
      if (key.nullable)
        this.omissions.add('nullability', paths.key(path), `${this.dialect.label} map keys are never null`);
      if (!value.nullable)
        this.omissions.add(
          'nullability',
          paths.value(path),
          `${this.dialect.label} DDL cannot declare map values NOT NULL`,
        );
      return `map<${keyText},${valueText}>`;
    }
    if (code === 'struct') {
      const members: string[] = [];
      for (const field of fieldsOf(type)) {
        const fieldPath = paths.field(path, field.name);
        const text = this.type(field.type, fieldPath);
        if (text === null) continue;
        let notNull = '';
        if (!field.nullable) {
          if (this.dialect.nestedNotNull) notNull = ' NOT NULL';
          else
            this.omissions.add(
              'nullability',
              fieldPath,
              `${this.dialect.label} cannot declare struct fields NOT NULL`,
            );
        }
        members.push(`${quoteName(this.name(field.name, fieldPath))}:${text}${notNull}`);
      }
      if (members.length === 0) return this.missing(type, path, 'field');
      return `struct<${members.join(',')}>`;
    }
    if (code === 'uniontype' && this.dialect === HIVE) {
      const members: string[] = [];
      for (const field of fieldsOf(type)) {
        const text = this.type(field.type, paths.field(path, field.name));
        if (text === null) return null;
        members.push(text);
      }
      return members.length === 0 ? this.missing(type, path, 'member') : `uniontype<${members.join(',')}>`;
    }
    return this.dialect.scalar(type, path, this.omissions);
  }

  /**
   * `name type [NOT NULL] [DEFAULT …] [COMMENT '…']`; null when the column cannot be declared.
   * `constraints`: whether NOT NULL and DEFAULT may be declared on it (not on Hive partition columns).
   */
  column(column: TranslatedColumn, constraints: boolean): string | null {
    if (column.type === null) {
      reportUnmapped(column, this.omissions, this.dialect.label);
      return null;
    }
    const text = this.type(column.type, column.name);
    if (text === null) return null;
    let clause = `${quoteName(this.name(column.name, column.name))} ${text}`;
    const notNull = !column.nullable && constraints;
    if (notNull) clause += ' NOT NULL';
    else if (!column.nullable)
      this.omissions.add(
        'nullability',
        column.name,
        `${this.dialect.label} cannot declare this column NOT NULL`,
      );
    if (column.default !== null && !isNullDefault(column)) {
      const value = constraints ? this.dialect.defaultClause(column, text) : undefined;
      if (value === undefined)
        this.omissions.add(
          'default',
          column.name,
          `${this.dialect.label} cannot declare the default ${column.default}`,
        );
      else if (notNull && this.dialect.oneConstraint)
        this.omissions.add(
          'default',
          column.name,
          `${this.dialect.label} takes one constraint per column: NOT NULL is declared, the default ${column.default} is not`,
        );
      else {
        clause += ` DEFAULT ${value}`;
        this.defaultsWritten = true;
      }
    }
    if (column.comment !== null) clause += ` COMMENT ${quoteString(column.comment)}`;
    return clause;
  }

  /** The name as the dialect takes it: excluded characters become `_` (reported). */
  name(wanted: string, path: string): string {
    if (this.dialect.excludedInNames === null) return wanted;
    const name = wanted.replace(this.dialect.excludedInNames, '_');
    if (name !== wanted)
      this.omissions.add('column', path, `named ${name}: ${this.dialect.label} names cannot hold , : or .`);
    return name;
  }

  private missing(type: TranslatedType, path: string, slot: string): null {
    this.omissions.add(
      'column',
      path,
      `the ${type.code} has no ${slot} type ${this.dialect.label} can declare: left out`,
    );
    return null;
  }
}

/** `ns`.`name`; a dotted namespace (catalog.db) is quoted part by part. */
function tableName(table: TranslatedTable): string {
  const parts = (table.namespace ?? '').split('.').filter((part) => part !== '');
  return [...parts, table.name].map(quoteName).join('.');
}

function columnList(table: TranslatedTable): string {
  return table.partition_columns.map(quoteName).join(', ');
}

function reportForeignKeys(table: TranslatedTable, omissions: Omissions, reason: string): void {
  for (const key of table.foreign_keys) omissions.add('foreign_key', keyPath(key), reason);
}

function statement(head: string, body: string[], tail: string[]): string {
  return `${head} (\n${body.map((line) => `  ${line}`).join(',\n')}\n)${tail.map((line) => `\n${line}`).join('')};\n`;
}

/**
 * HiveQL (Hive 3.1): partition columns in PARTITIONED BY with their types, NOT NULL and DEFAULT
 * literals as Hive 3 constraints on the plain columns, the primary key and unique constraints as
 * informational `DISABLE NOVALIDATE` constraints (reported: Hive does not enforce them).
 */
export function renderHiveDdl(table: TranslatedTable, omissions: Omissions): string {
  const writer = new DdlWriter(HIVE, omissions);
  const partitions = new Set(table.partition_columns);
  const body: string[] = [];
  const partitionBody: string[] = [];
  for (const column of table.columns) {
    const apart = partitions.has(column.name);
    const clause = writer.column(column, !apart);
    if (clause !== null) (apart ? partitionBody : body).push(clause);
  }
  if (table.primary_key !== null) {
    const key = table.primary_key;
    const name = key.name === null ? '' : `CONSTRAINT ${quoteName(key.name)} `;
    body.push(`${name}PRIMARY KEY (${key.columns.map(quoteName).join(', ')}) DISABLE NOVALIDATE`);
    omissions.add(
      'primary_key',
      keyPath(key),
      'declared DISABLE NOVALIDATE: Hive does not enforce primary keys',
    );
  }
  for (const key of table.unique_constraints) {
    const name = key.name === null ? '' : `CONSTRAINT ${quoteName(key.name)} `;
    body.push(`${name}UNIQUE (${key.columns.map(quoteName).join(', ')}) DISABLE NOVALIDATE`);
    omissions.add(
      'unique',
      keyPath(key),
      'declared DISABLE NOVALIDATE: Hive does not enforce unique constraints',
    );
  }
  reportForeignKeys(
    table,
    omissions,
    'Hive accepts a foreign key only to a table already in its metastore: not declared',
  );
  const tail: string[] = [];
  if (table.comment !== null) tail.push(`COMMENT ${quoteString(table.comment)}`);
  if (partitionBody.length > 0) tail.push(`PARTITIONED BY (${partitionBody.join(', ')})`);
  tail.push('STORED AS PARQUET');
  return statement(`CREATE TABLE ${tableName(table)}`, body, tail);
}

/** Spark SQL for a Delta Lake table: NOT NULL (nested too), literal defaults with the table feature they need. */
export function renderSparkDdl(table: TranslatedTable, omissions: Omissions): string {
  const writer = new DdlWriter(SPARK_DELTA, omissions);
  const body = table.columns.map((column) => writer.column(column, true)).filter((clause) => clause !== null);
  reportKeys(table, omissions, 'Delta Lake');
  const tail = ['USING DELTA'];
  if (table.partition_columns.length > 0) tail.push(`PARTITIONED BY (${columnList(table)})`);
  if (table.comment !== null) tail.push(`COMMENT ${quoteString(table.comment)}`);
  if (writer.defaultsWritten) tail.push("TBLPROPERTIES ('delta.feature.allowColumnDefaults' = 'supported')");
  return statement(`CREATE TABLE ${tableName(table)}`, body, tail);
}

/**
 * Spark SQL for an Iceberg v2 table: NOT NULL (nested too), identity partitions, the primary key as
 * the table's identifier fields (Iceberg's Spark SQL extensions); v2 has no column defaults.
 */
export function renderIcebergDdl(table: TranslatedTable, omissions: Omissions): string {
  const writer = new DdlWriter(ICEBERG, omissions);
  const body = table.columns.map((column) => writer.column(column, true)).filter((clause) => clause !== null);
  const tail = ['USING iceberg'];
  if (table.partition_columns.length > 0) tail.push(`PARTITIONED BY (${columnList(table)})`);
  if (table.comment !== null) tail.push(`COMMENT ${quoteString(table.comment)}`);
  let text = statement(`CREATE TABLE ${tableName(table)}`, body, tail);
  const key = table.primary_key;
  if (key !== null) {
    if (identifierFieldsFit(table, key.columns))
      text += `ALTER TABLE ${tableName(table)} SET IDENTIFIER FIELDS ${key.columns.map(quoteName).join(', ')};\n`;
    else
      omissions.add(
        'primary_key',
        keyPath(key),
        'Iceberg identifier fields must be NOT NULL primitive columns, not floating point: not declared',
      );
  }
  for (const unique of table.unique_constraints)
    omissions.add('unique', keyPath(unique), 'Iceberg has no unique constraints');
  reportForeignKeys(table, omissions, 'Iceberg has no foreign keys');
  return text;
}

function identifierFieldsFit(table: TranslatedTable, columns: string[]): boolean {
  return columns.every((name) => {
    const column = table.columns.find((candidate) => candidate.name === name);
    return (
      column !== undefined &&
      !column.nullable &&
      column.type !== null &&
      !['float', 'double', 'list', 'map', 'struct', 'time'].includes(column.type.code)
    );
  });
}

function reportKeys(table: TranslatedTable, omissions: Omissions, label: string): void {
  if (table.primary_key !== null)
    omissions.add('primary_key', keyPath(table.primary_key), `${label} has no primary keys`);
  for (const key of table.unique_constraints)
    omissions.add('unique', keyPath(key), `${label} has no unique constraints`);
  reportForeignKeys(table, omissions, `${label} has no foreign keys`);
}
