import { describe, expect, it } from '@jest/globals';
import { Omissions, type TranslatedColumn, type TranslatedTable } from '../translated-table.js';
import { portableDefault, renderSqlDdl } from './sql-ddl.js';

function col(name: string, code: string, extra: Partial<TranslatedColumn> = {}): TranslatedColumn {
  return {
    name,
    nullable: true,
    type: { code, params: {}, rendered: code, children: [] },
    default: null,
    comment: null,
    source_type: code,
    native_type: code,
    fidelity: 'exact',
    loss: [],
    ...extra,
  };
}

function table(columns: TranslatedColumn[], extra: Partial<TranslatedTable> = {}): TranslatedTable {
  return {
    name: 'T',
    namespace: null,
    comment: null,
    target_flavor: 'x',
    columns,
    primary_key: null,
    unique_constraints: [],
    foreign_keys: [],
    partition_columns: [],
    ...extra,
  };
}

describe('portableDefault', () => {
  it.each([
    ['0', { kind: 'number', text: '0' }],
    ['(-1.5)', { kind: 'number', text: '-1.5' }],
    ['0::numeric(12,2)', { kind: 'number', text: '0' }],
    ["'new'::sales.order_status", { kind: 'string', value: 'new' }],
    [`'it''s'::"Odd Type"`, { kind: 'string', value: "it's" }],
    ['TRUE', { kind: 'boolean', value: true }],
    ['NULL::text', { kind: 'null' }],
    ['now()', { kind: 'now' }],
    ['CURRENT_TIMESTAMP(3)', { kind: 'now' }],
    ['current_date', { kind: 'today' }],
  ])('%s is portable', (text, expected) => {
    expect(portableDefault(text)).toEqual(expected);
  });

  it.each(["nextval('s'::regclass)", 'gen_random_uuid()', 'ARRAY[]::varchar[]', "E'a\\nb'", "'a' || 'b'"])(
    '%s is not',
    (text) => {
      expect(portableDefault(text)).toBeNull();
    },
  );
});

describe('renderSqlDdl', () => {
  const odd = 'a "b" `c` \'d\'';

  it('quotes identifiers and escapes literals per dialect', () => {
    const columns = [col(odd, 'int', { nullable: false, default: "'x\\y''z'", comment: 'c\\d' })];
    const o = new Omissions();
    expect(renderSqlDdl('mysql8')(table(columns, { name: odd }), o)).toBe(
      "CREATE TABLE `a \"b\" ``c`` 'd'` (\n  `a \"b\" ``c`` 'd'` int NOT NULL DEFAULT 'x\\\\y''z' COMMENT 'c\\\\d'\n);\n",
    );
    expect(renderSqlDdl('postgres14')(table(columns, { name: odd }), new Omissions())).toBe(
      `CREATE TABLE "a ""b"" \`c\` 'd'" (\n  "a ""b"" \`c\` 'd'" int NOT NULL DEFAULT 'x\\y''z'\n);\n` +
        `COMMENT ON COLUMN "a ""b"" \`c\` 'd'"."a ""b"" \`c\` 'd'" IS 'c\\d';\n`,
    );
    const sqlite = new Omissions();
    expect(renderSqlDdl('sqlite3')(table(columns, { name: odd }), sqlite)).toContain(
      `"a ""b"" \`c\` 'd'" int NOT NULL DEFAULT 'x\\y''z'\n`,
    );
    expect(sqlite.items).toEqual([{ kind: 'comment', path: odd, reason: 'SQLite has no comments.' }]);
  });

  it('MySQL: CURRENT_TIMESTAMP only on datetime/timestamp, with their precision', () => {
    const o = new Omissions();
    const ddl = renderSqlDdl('mysql8')(
      table([
        col('a', 'datetime', {
          default: 'now()',
          type: { code: 'datetime', params: { precision: 6 }, rendered: 'datetime(6)', children: [] },
        }),
        col('b', 'date', { default: 'now()' }),
        col('c', 'date', { default: 'CURRENT_DATE' }),
      ]),
      o,
    );
    expect(ddl).toContain('`a` datetime(6) NULL DEFAULT CURRENT_TIMESTAMP(6),');
    expect(ddl).toContain('`b` date NULL,');
    expect(ddl).toContain('`c` date NULL DEFAULT (CURRENT_DATE)');
    expect(o.items.map((i) => [i.kind, i.path])).toEqual([['default', 'b']]);
  });

  it('a table without any column: a comment for MySQL and SQLite, an empty table for PostgreSQL', () => {
    const t = table([{ ...col('x', 'int'), type: null }]);
    expect(renderSqlDdl('sqlite3')(t, new Omissions())).toBe(
      '-- No column of "T" maps to sqlite3: nothing to create.\n',
    );
    expect(renderSqlDdl('postgres14')(t, new Omissions())).toBe('CREATE TABLE "T" (\n\n);\n');
  });
});
