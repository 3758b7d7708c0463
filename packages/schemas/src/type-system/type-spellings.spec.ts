// The spelling tables' own rules (ADR 0062): a facet table reads a name as its flavor's catalog does,
// except where the vocabularies differ on purpose; every table is lower case. The mapping of each
// spelling is pinned by its readers' tests (crawler test/type-spellings.test.ts, backend
// openlineage-types.spec.ts).
import { describe, expect, it } from '@jest/globals';
import {
  codeOf,
  ICEBERG_V2_CATALOG_SPELLINGS,
  MYSQL8_CATALOG_SPELLINGS,
  OPENLINEAGE_FACET_SPELLINGS,
  POSTGRES14_CATALOG_SPELLINGS,
  SPARK_SQL_CATALOG_SPELLINGS,
  SQLITE3_DECLARED_SPELLINGS,
  type TypeSpellings,
} from './index.js';

const CATALOGS: Record<string, TypeSpellings> = {
  postgres14: POSTGRES14_CATALOG_SPELLINGS,
  mysql8: MYSQL8_CATALOG_SPELLINGS,
  sqlite3: SQLITE3_DECLARED_SPELLINGS,
  spark_sql: SPARK_SQL_CATALOG_SPELLINGS,
  iceberg_v2: ICEBERG_V2_CATALOG_SPELLINGS,
};

/** The names two tables spell differently. */
const disagreements = (a: TypeSpellings, b: TypeSpellings) =>
  Object.keys(a).filter((name) => Object.hasOwn(b, name) && a[name] !== b[name]);

describe('type-name spellings per flavor', () => {
  it('are lower case with single spaces, in every table', () => {
    const tables = { ...CATALOGS, ...OPENLINEAGE_FACET_SPELLINGS };
    for (const [flavor, table] of Object.entries(tables)) {
      for (const name of Object.keys(table)) {
        expect([flavor, name]).toEqual([flavor, name.toLowerCase().replace(/\s+/g, ' ').trim()]);
      }
    }
  });

  it("give a facet the catalog's code for every catalog name of a code it reads", () => {
    for (const [flavor, catalog] of Object.entries(CATALOGS)) {
      const facet = OPENLINEAGE_FACET_SPELLINGS[flavor];
      if (facet === undefined) continue;
      const codes = new Set(Object.values(facet));
      const taken = Object.entries(catalog).filter(([, code]) => codes.has(code));
      const missing = taken.filter(([name]) => !Object.hasOwn(facet, name)).map(([name]) => name);
      // Spark 2's `null` of a Delta log is no facet name (Spark's facets write `void`).
      expect([flavor, missing]).toEqual([flavor, flavor === 'spark_sql' ? ['null'] : []]);
    }
  });

  it('disagree only where the vocabularies do: PostgreSQL\'s catalog "char" is not a facet\'s char', () => {
    const found = Object.fromEntries(
      Object.entries(CATALOGS)
        .filter(([flavor]) => OPENLINEAGE_FACET_SPELLINGS[flavor] !== undefined)
        .map(([flavor, catalog]) => [flavor, disagreements(catalog, OPENLINEAGE_FACET_SPELLINGS[flavor])]),
    );
    expect(found).toEqual({ postgres14: ['char'], mysql8: [], spark_sql: [], iceberg_v2: [] });
    expect(POSTGRES14_CATALOG_SPELLINGS['char']).toBe('internal_char');
    expect(OPENLINEAGE_FACET_SPELLINGS['postgres14']['char']).toBe('char');
    expect(POSTGRES14_CATALOG_SPELLINGS['bpchar']).toBe('char');
  });

  it('are read by own names only', () => {
    expect(codeOf(POSTGRES14_CATALOG_SPELLINGS, 'int4')).toBe('integer');
    expect(codeOf(POSTGRES14_CATALOG_SPELLINGS, 'constructor')).toBeUndefined();
    expect(codeOf(OPENLINEAGE_FACET_SPELLINGS['mysql8'], 'toString')).toBeUndefined();
    expect(codeOf(SQLITE3_DECLARED_SPELLINGS, '')).toBe('none');
  });
});
