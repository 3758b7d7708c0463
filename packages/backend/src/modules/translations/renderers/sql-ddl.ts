// CREATE TABLE for PostgreSQL, MySQL/MariaDB and SQLite (ADR 0049). The table is created unqualified,
// in the connection's current schema or database: a version is one table, and where it lands is the
// reader's choice. What a dialect cannot hold is an omission, never a silent drop:
// - a column without a type in the target (the model's omission), and any key naming it;
// - a default that is not a portable literal (a function call, a cast of an array, a sequence);
// - foreign keys always: the output is one table, the referenced one is not in it;
// - MySQL: keys on TEXT/BLOB/JSON/spatial columns (they need a prefix length, which changes them);
// - SQLite: comments (it has none).
import type {
  Omissions,
  Renderer,
  TranslatedColumn,
  TranslatedKey,
  TranslatedTable,
} from '../translated-table.js';

export type SqlDialect = 'postgres14' | 'mysql8' | 'sqlite3';

/** A source default the three dialects read alike. */
type PortableDefault =
  | { kind: 'number'; text: string }
  | { kind: 'string'; value: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  | { kind: 'now' }
  | { kind: 'today' };

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const STRING = /^'((?:[^']|'')*)'$/;
// A PostgreSQL cast suffix on a literal: `'new'::sales.order_status`, `0::numeric(12,2)`.
const CAST_SUFFIX = /::\s*(?:"(?:[^"]|"")+"|[\w.$ ]+)(?:\([\d,\s]*\))?(?:\[\])*\s*$/;

/** The default as a portable literal, or null when it is an expression of the source's dialect. */
export function portableDefault(text: string): PortableDefault | null {
  let t = text.trim();
  for (let i = 0; i < 10; i++) {
    const before = t;
    if (t.startsWith('(') && t.endsWith(')')) t = t.slice(1, -1).trim();
    t = t.replace(CAST_SUFFIX, '').trim();
    if (t === before) break;
  }
  if (NUMBER.test(t)) return { kind: 'number', text: t };
  const string = STRING.exec(t);
  if (string) return { kind: 'string', value: string[1].replace(/''/g, "'") };
  const word = t.toLowerCase();
  if (word === 'true' || word === 'false') return { kind: 'boolean', value: word === 'true' };
  if (word === 'null') return { kind: 'null' };
  if (/^(current_timestamp(\(\d*\))?|now\(\)|localtimestamp)$/.test(word)) return { kind: 'now' };
  if (word === 'current_date' || word === 'curdate()') return { kind: 'today' };
  return null;
}

// MySQL: TEXT/BLOB/JSON/spatial columns take a default only as an expression, and a key only with a
// prefix length.
const MYSQL_LOB = new Set([
  'tinytext',
  'text',
  'mediumtext',
  'longtext',
  'tinyblob',
  'blob',
  'mediumblob',
  'longblob',
  'json',
  'geometry',
  'point',
  'linestring',
  'polygon',
  'multipoint',
  'multilinestring',
  'multipolygon',
  'geometrycollection',
]);
const MYSQL_DATETIME = new Set(['datetime', 'timestamp']);
/** MySQL's limits on comments (longer ones are an error in strict mode). */
const MYSQL_COLUMN_COMMENT_MAX = 1024;
const MYSQL_TABLE_COMMENT_MAX = 2048;

interface Dialect {
  quote: (identifier: string) => string;
  literal: (value: string) => string;
  /** The DEFAULT clause for a column, or the reason it is left out. */
  defaultClause: (d: PortableDefault, column: TranslatedColumn) => string | { omit: string };
  /** Why a column cannot be in a key (MySQL's TEXT/BLOB), or null. */
  unkeyable: (column: TranslatedColumn) => string | null;
  nullClause: (nullable: boolean) => string;
}

const doubled = (quote: string) => (s: string) => `${quote}${s.split(quote).join(quote + quote)}${quote}`;
const standardLiteral = doubled("'");

function standardDefault(d: PortableDefault): string {
  switch (d.kind) {
    case 'number':
      return d.text;
    case 'string':
      return standardLiteral(d.value);
    case 'boolean':
      return d.value ? 'TRUE' : 'FALSE';
    case 'null':
      return 'NULL';
    case 'now':
      return 'CURRENT_TIMESTAMP';
    case 'today':
      return 'CURRENT_DATE';
  }
}

const postgres: Dialect = {
  quote: doubled('"'),
  literal: standardLiteral,
  defaultClause: standardDefault,
  unkeyable: () => null,
  nullClause: (nullable) => (nullable ? '' : ' NOT NULL'),
};

const sqlite: Dialect = { ...postgres };

// MySQL reads a backslash in a string literal as an escape (unless NO_BACKSLASH_ESCAPES).
const mysqlLiteral = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

const mysql: Dialect = {
  quote: doubled('`'),
  literal: mysqlLiteral,
  defaultClause: (d, column) => {
    const code = column.type?.code ?? '';
    if (d.kind === 'now') {
      if (!MYSQL_DATETIME.has(code))
        return { omit: `MySQL takes CURRENT_TIMESTAMP only on datetime and timestamp` };
      const precision = column.type?.params['precision'];
      return typeof precision === 'number' && precision > 0
        ? `CURRENT_TIMESTAMP(${precision})`
        : 'CURRENT_TIMESTAMP';
    }
    if (d.kind === 'today') return '(CURRENT_DATE)';
    const value = d.kind === 'string' ? mysqlLiteral(d.value) : standardDefault(d);
    // A TEXT/BLOB/JSON default must be an expression (MySQL 8.0.13+, MariaDB 10.2+).
    return MYSQL_LOB.has(code) && d.kind !== 'null' ? `(${value})` : value;
  },
  unkeyable: (column) =>
    column.type && MYSQL_LOB.has(column.type.code)
      ? `MySQL cannot key a ${column.type.code} column without a prefix length`
      : null,
  // Explicit NULL: a MariaDB TIMESTAMP column is NOT NULL unless told otherwise (explicit_defaults_for_timestamp off).
  nullClause: (nullable) => (nullable ? ' NULL' : ' NOT NULL'),
};

const DIALECTS: Record<SqlDialect, Dialect> = { postgres14: postgres, mysql8: mysql, sqlite3: sqlite };

/** A key whose columns are all in the output and keyable; otherwise an omission. */
function keyColumns(
  key: TranslatedKey,
  kind: 'primary_key' | 'unique',
  byName: ReadonlyMap<string, TranslatedColumn>,
  dialect: Dialect,
  omissions: Omissions,
): string[] | null {
  const path = key.name ?? key.columns.join(', ');
  for (const name of key.columns) {
    const column = byName.get(name);
    if (!column?.type) {
      omissions.add(kind, path, `Its column ${name} is not in the output.`);
      return null;
    }
    const why = dialect.unkeyable(column);
    if (why) {
      omissions.add(kind, path, `${why} (${name}).`);
      return null;
    }
  }
  return key.columns;
}

function columnLine(
  column: TranslatedColumn & { type: NonNullable<TranslatedColumn['type']> },
  flavor: SqlDialect,
  dialect: Dialect,
  omissions: Omissions,
): string {
  let line = `  ${dialect.quote(column.name)} ${column.type.rendered}${dialect.nullClause(column.nullable)}`;
  if (column.default !== null) {
    const portable = portableDefault(column.default);
    const clause =
      portable === null
        ? { omit: "not a portable literal (an expression of the source's dialect)" }
        : dialect.defaultClause(portable, column);
    if (typeof clause === 'string') line += ` DEFAULT ${clause}`;
    else omissions.add('default', column.name, `DEFAULT ${column.default}: ${clause.omit}.`);
  }
  if (column.comment !== null) {
    if (flavor === 'mysql8' && column.comment.length <= MYSQL_COLUMN_COMMENT_MAX) {
      line += ` COMMENT ${mysqlLiteral(column.comment)}`;
    } else if (flavor !== 'postgres14') {
      omissions.add(
        'comment',
        column.name,
        flavor === 'sqlite3'
          ? 'SQLite has no comments.'
          : `Longer than MySQL's ${MYSQL_COLUMN_COMMENT_MAX} characters.`,
      );
    }
  }
  return line;
}

/** The CREATE TABLE (and PostgreSQL's COMMENT ON statements) of the table in one dialect. */
export function renderSqlDdl(flavor: SqlDialect): Renderer {
  const dialect = DIALECTS[flavor];
  return (table: TranslatedTable, omissions: Omissions): string => {
    const q = dialect.quote;
    const present = table.columns.filter(
      (c): c is TranslatedColumn & { type: NonNullable<TranslatedColumn['type']> } => c.type !== null,
    );
    const byName = new Map(table.columns.map((c) => [c.name, c]));
    const lines = present.map((c) => columnLine(c, flavor, dialect, omissions));
    if (table.primary_key) {
      const columns = keyColumns(table.primary_key, 'primary_key', byName, dialect, omissions);
      // MySQL names every primary key PRIMARY.
      const name =
        table.primary_key.name && flavor !== 'mysql8' ? `CONSTRAINT ${q(table.primary_key.name)} ` : '';
      if (columns) lines.push(`  ${name}PRIMARY KEY (${columns.map(q).join(', ')})`);
    }
    for (const unique of table.unique_constraints) {
      const columns = keyColumns(unique, 'unique', byName, dialect, omissions);
      const name = unique.name ? `CONSTRAINT ${q(unique.name)} ` : '';
      if (columns) lines.push(`  ${name}UNIQUE (${columns.map(q).join(', ')})`);
    }
    for (const fk of table.foreign_keys) {
      const target = [fk.referenced.schema, fk.referenced.table].filter((s) => s !== null).join('.');
      omissions.add(
        'foreign_key',
        fk.name ?? fk.columns.join(', '),
        `References ${target} (${fk.referenced.columns.join(', ')}), which is not in the output: add it once both tables exist.`,
      );
    }
    if (lines.length === 0 && flavor !== 'postgres14') {
      // A name is never left raw in a line comment: a line break would end it.
      return `-- No column of ${q(table.name).replace(/[\r\n]/g, ' ')} maps to ${flavor}: nothing to create.\n`;
    }
    let tableComment = '';
    if (table.comment !== null) {
      if (flavor === 'mysql8' && table.comment.length <= MYSQL_TABLE_COMMENT_MAX) {
        tableComment = ` COMMENT=${mysqlLiteral(table.comment)}`;
      } else if (flavor !== 'postgres14') {
        omissions.add(
          'comment',
          table.name,
          flavor === 'sqlite3'
            ? 'SQLite has no comments.'
            : `Longer than MySQL's ${MYSQL_TABLE_COMMENT_MAX} characters.`,
        );
      }
    }
    const statements = [`CREATE TABLE ${q(table.name)} (\n${lines.join(',\n')}\n)${tableComment};`];
    if (flavor === 'postgres14') {
      if (table.comment !== null)
        statements.push(`COMMENT ON TABLE ${q(table.name)} IS ${dialect.literal(table.comment)};`);
      for (const c of present) {
        if (c.comment !== null) {
          statements.push(
            `COMMENT ON COLUMN ${q(table.name)}.${q(c.name)} IS ${dialect.literal(c.comment)};`,
          );
        }
      }
    }
    return `${statements.join('\n')}\n`;
  };
}
