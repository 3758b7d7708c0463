// No Hive or Spark engine runs here, and node-sql-parser's hive dialect rejects complex types,
// PARTITIONED BY and STORED AS: the DDL is checked as exact text for representative tables, and parsed
// back by a small parser of the CREATE TABLE grammar these dialects share (below).
import { describe, expect, it } from '@jest/globals';
import { Omissions } from '../translated-table.js';
import { quoteString, renderHiveDdl, renderIcebergDdl, renderSparkDdl } from './hive-ddl.js';
import { col, t, table } from './spec-helpers.js';

const r = (
  code: string,
  rendered: string,
  params: Record<string, unknown> = {},
  children: Parameters<typeof t>[2] = [],
) => t(code, params, children, rendered);

const hiveOrders = table(
  [
    col('id', r('bigint', 'bigint'), { nullable: false, comment: "The order's id" }),
    col('amount', r('decimal', 'decimal(12,2)', { precision: 12, scale: 2 }), {
      nullable: false,
      default: '0',
    }),
    col('status', r('varchar', 'varchar(10)', { length: 10 }), { default: "'new'" }),
    col('placed_at', r('timestamp', 'timestamp'), { default: 'now()' }),
    col('tags', r('array', 'array<string>', {}, [['element', r('string', 'string'), false]])),
    col(
      'ship to',
      r('struct', 'struct<street:string,zip:string>', {}, [
        ['field:street', r('string', 'string'), false],
        ['field:zip', r('string', 'string'), true],
      ]),
    ),
    col(
      'attrs',
      r('map', 'map<string,int>', {}, [
        ['key', r('string', 'string'), false],
        ['value', r('int', 'int'), true],
      ]),
    ),
    col('span', r('interval_day_time', 'interval_day_time')),
    col('geom', null, { source_type: 'geometry' }),
    col('dt', r('string', 'string'), { nullable: false }),
  ],
  {
    comment: 'Orders placed',
    partition_columns: ['dt'],
    primary_key: { name: 'pk_orders', columns: ['id'] },
    unique_constraints: [{ name: null, columns: ['status'] }],
    foreign_keys: [
      { name: 'fk_c', columns: ['id'], referenced: { schema: null, table: 'c', columns: ['id'] } },
    ],
  },
);

const HIVE = `CREATE TABLE \`shop\`.\`orders\` (
  \`id\` bigint NOT NULL COMMENT 'The order\\'s id',
  \`amount\` decimal(12,2) NOT NULL,
  \`status\` varchar(10) DEFAULT 'new',
  \`placed_at\` timestamp,
  \`tags\` array<string>,
  \`ship to\` struct<\`street\`:string,\`zip\`:string>,
  \`attrs\` map<string,int>,
  CONSTRAINT \`pk_orders\` PRIMARY KEY (\`id\`) DISABLE NOVALIDATE,
  UNIQUE (\`status\`) DISABLE NOVALIDATE
)
COMMENT 'Orders placed'
PARTITIONED BY (\`dt\` string)
STORED AS PARQUET;
`;

const sparkOrders = table(
  [
    col('id', r('bigint', 'bigint'), { nullable: false, comment: 'The id' }),
    col('amount', r('decimal', 'decimal(12,2)', { precision: 12, scale: 2 }), {
      nullable: false,
      default: '0.00',
    }),
    col('born', r('date', 'date'), { default: "'2020-01-02'" }),
    col('placed_at', r('timestamp_ntz', 'timestamp_ntz'), { default: 'CURRENT_TIMESTAMP' }),
    col(
      'address',
      r('struct', 'struct<street:string,lines:array<string>>', {}, [
        ['field:street', r('string', 'string'), false],
        ['field:lines', r('array', 'array<string>', {}, [['element', r('string', 'string'), true]]), true],
      ]),
      { nullable: false },
    ),
    col(
      'scores',
      r('map', 'map<string,double>', {}, [
        ['key', r('string', 'string'), false],
        ['value', r('double', 'double'), false],
      ]),
    ),
    col('nothing', r('void', 'void')),
    col('dt', r('date', 'date'), { nullable: false }),
  ],
  { namespace: 'lake.sales', partition_columns: ['dt'], primary_key: { name: null, columns: ['id'] } },
);

const SPARK = `CREATE TABLE \`lake\`.\`sales\`.\`orders\` (
  \`id\` bigint NOT NULL COMMENT 'The id',
  \`amount\` decimal(12,2) NOT NULL DEFAULT 0.00,
  \`born\` date DEFAULT DATE '2020-01-02',
  \`placed_at\` timestamp_ntz,
  \`address\` struct<\`street\`:string NOT NULL,\`lines\`:array<string>> NOT NULL,
  \`scores\` map<string,double>,
  \`dt\` date NOT NULL
)
USING DELTA
PARTITIONED BY (\`dt\`)
TBLPROPERTIES ('delta.feature.allowColumnDefaults' = 'supported');
`;

const icebergOrders = table(
  [
    col('id', t('long'), { nullable: false }),
    col('amount', t('decimal', { precision: 12, scale: 2 }), { default: '0' }),
    col('ref', t('uuid')),
    col('hash', t('fixed', { length: 16 })),
    col('at', t('time')),
    col('placed_at', t('timestamptz'), { nullable: false, comment: 'UTC' }),
    col('local_at', t('timestamp')),
    col('lines', t('list', {}, [['element', t('struct', {}, [['field:sku', t('string'), false]]), true]])),
    col('day', t('date'), { nullable: false }),
  ],
  { comment: 'Orders', partition_columns: ['day'], primary_key: { name: 'pk', columns: ['id'] } },
);

const ICEBERG = `CREATE TABLE \`shop\`.\`orders\` (
  \`id\` bigint NOT NULL,
  \`amount\` decimal(12,2),
  \`ref\` string,
  \`hash\` binary,
  \`placed_at\` timestamp NOT NULL COMMENT 'UTC',
  \`local_at\` timestamp_ntz,
  \`lines\` array<struct<\`sku\`:string NOT NULL>>,
  \`day\` date NOT NULL
)
USING iceberg
PARTITIONED BY (\`day\`)
COMMENT 'Orders';
ALTER TABLE \`shop\`.\`orders\` SET IDENTIFIER FIELDS \`id\`;
`;

describe('renderHiveDdl', () => {
  const omissions = new Omissions();
  const text = renderHiveDdl(hiveOrders, omissions);

  it('writes HiveQL: quoted names, constraints, comments, partitions apart, Parquet storage', () => {
    expect(text).toBe(HIVE);
  });

  it('parses back to the declared columns', () => {
    const parsed = parseCreateTable(text);
    expect(parsed.name).toEqual(['shop', 'orders']);
    expect(parsed.columns.map((column) => column.name)).toEqual([
      'id',
      'amount',
      'status',
      'placed_at',
      'tags',
      'ship to',
      'attrs',
    ]);
    expect(parsed.columns[5].type).toBe('struct<`street`:string,`zip`:string>');
    expect(parsed.tail).toEqual([
      "COMMENT 'Orders placed'",
      'PARTITIONED BY (`dt` string)',
      'STORED AS PARQUET',
    ]);
  });

  it('reports what Hive cannot declare or enforce', () => {
    expect(omissions.items.map((item) => [item.kind, item.path])).toEqual([
      ['default', 'amount'],
      ['default', 'placed_at'],
      ['nullability', 'tags[]'],
      ['nullability', 'ship to.street'],
      ['column', 'span'],
      ['column', 'geom'],
      ['nullability', 'dt'],
      ['primary_key', 'pk_orders'],
      ['unique', 'status'],
      ['foreign_key', 'fk_c'],
    ]);
  });

  it('is deterministic', () => {
    expect(renderHiveDdl(hiveOrders, new Omissions())).toBe(text);
  });

  it('renames what Hive rejects in names and leaves out maps keyed by a container', () => {
    const found = new Omissions();
    const out = renderHiveDdl(
      table([
        col('a:b', r('int', 'int')),
        col('s', r('struct', '', {}, [['field:x.y', r('int', 'int'), true]])),
        col(
          'm',
          r('map', '', {}, [
            ['key', r('array', '', {}, [['element', r('int', 'int'), true]]), false],
            ['value', r('int', 'int'), true],
          ]),
        ),
      ]),
      found,
    );
    expect(out).toBe(
      'CREATE TABLE `shop`.`orders` (\n  `a_b` int,\n  `s` struct<`x_y`:int>\n)\nSTORED AS PARQUET;\n',
    );
    expect(found.items.map((item) => [item.kind, item.path])).toEqual([
      ['column', 'a:b'],
      ['column', 's.x.y'],
      ['column', 'm'],
    ]);
  });
});

describe('renderSparkDdl', () => {
  const omissions = new Omissions();
  const text = renderSparkDdl(sparkOrders, omissions);

  it('writes Spark SQL for Delta: NOT NULL nested too, literal defaults and their table feature', () => {
    expect(text).toBe(SPARK);
    expect(parseCreateTable(text).columns.map((column) => column.name)).toEqual([
      'id',
      'amount',
      'born',
      'placed_at',
      'address',
      'scores',
      'dt',
    ]);
  });

  it('reports what Delta cannot declare', () => {
    expect(omissions.items.map((item) => [item.kind, item.path])).toEqual([
      ['default', 'placed_at'],
      ['nullability', 'scores.value'],
      ['column', 'nothing'],
      ['primary_key', 'id'],
    ]);
  });

  it('leaves the table feature out when no default is written', () => {
    const plain = renderSparkDdl(table([col('a', r('int', 'int'))]), new Omissions());
    expect(plain).toBe('CREATE TABLE `shop`.`orders` (\n  `a` int\n)\nUSING DELTA;\n');
  });
});

describe('renderIcebergDdl', () => {
  const omissions = new Omissions();
  const text = renderIcebergDdl(icebergOrders, omissions);

  it("writes Spark SQL for Iceberg with Spark's type names and the key as identifier fields", () => {
    expect(text).toBe(ICEBERG);
    expect(parseCreateTable(text.split('\n').slice(0, -2).join('\n') + '\n').columns).toHaveLength(8);
  });

  it('reports what Spark DDL cannot declare for Iceberg', () => {
    expect(omissions.items.map((item) => [item.kind, item.path])).toEqual([
      ['default', 'amount'],
      ['column', 'ref'],
      ['column', 'hash'],
      ['column', 'at'],
    ]);
  });

  it('reports a key that cannot become identifier fields', () => {
    const found = new Omissions();
    const out = renderIcebergDdl(
      table([col('x', t('double'), { nullable: false })], { primary_key: { name: null, columns: ['x'] } }),
      found,
    );
    expect(out).not.toContain('IDENTIFIER');
    expect(found.items.map((item) => item.kind)).toEqual(['primary_key']);
  });
});

describe('quoteString', () => {
  it('escapes quotes, backslashes and line breaks', () => {
    expect(quoteString("it's a \\ test\nline")).toBe("'it\\'s a \\\\ test\\nline'");
  });
});

// A parser of the CREATE TABLE these renderers write: `CREATE TABLE name (column, …) tail…;` where a
// column is `name type [NOT NULL] [DEFAULT literal] [COMMENT 'text']` or a table constraint, and a
// type is a name with optional (n[,m]) or a container with <…> of types (struct fields `name:type`).
function parseCreateTable(text: string): {
  name: string[];
  columns: { name: string; type: string }[];
  tail: string[];
} {
  let at = 0;
  const rest = () => text.slice(at);
  const eat = (pattern: RegExp): string => {
    const match = pattern.exec(rest());
    if (match === null || match.index !== 0)
      throw new Error(`expected ${String(pattern)} at ${rest().slice(0, 30)}`);
    at += match[0].length;
    return match[0];
  };
  const quoted = () =>
    eat(/`(?:[^`]|``)*`/)
      .slice(1, -1)
      .replace(/``/g, '`');
  const string = () => eat(/'(?:[^'\\]|\\.)*'/);
  const type = (): string => {
    const start = at;
    const name = eat(/[a-z_]+( with local time zone)?/);
    if (['array', 'map', 'struct', 'uniontype'].includes(name)) {
      eat(/</);
      for (;;) {
        if (name === 'struct') {
          quoted();
          eat(/:/);
        }
        type();
        if (name === 'struct' && rest().startsWith(' NOT NULL')) eat(/ NOT NULL/);
        if (rest().startsWith('>')) break;
        eat(/,/);
      }
      eat(/>/);
    } else if (rest().startsWith('(')) eat(/\(\d+(,\d+)?\)/);
    return text.slice(start, at);
  };
  eat(/CREATE TABLE /);
  const name = [quoted()];
  while (rest().startsWith('.')) {
    eat(/\./);
    name.push(quoted());
  }
  eat(/ \(\n/);
  const columns: { name: string; type: string }[] = [];
  for (;;) {
    eat(/ {2}/);
    if (/^(CONSTRAINT|PRIMARY KEY|UNIQUE)/.test(rest())) eat(/[^\n]*?(?=,\n|\n\))/);
    else {
      const column = quoted();
      eat(/ /);
      columns.push({ name: column, type: type() });
      if (rest().startsWith(' NOT NULL')) eat(/ NOT NULL/);
      if (rest().startsWith(' DEFAULT ')) eat(/ DEFAULT ((DATE|TIMESTAMP) )?('(?:[^'\\]|\\.)*'|[\w.+-]+)/);
      if (rest().startsWith(' COMMENT ')) {
        eat(/ COMMENT /);
        string();
      }
    }
    if (rest().startsWith('\n)')) break;
    eat(/,\n/);
  }
  eat(/\n\)/);
  const tail: string[] = [];
  while (rest().startsWith('\n')) {
    eat(/\n/);
    tail.push(eat(/[^;\n]+/));
  }
  eat(/;\n$/);
  return { name, columns, tail };
}
