import { describe, expect, it } from '@jest/globals';
import { driftOf, type RegisteredColumn } from './observed-schema-drift.js';

const column = (name: string, nullable = true): RegisteredColumn => ({
  name,
  nullable,
  default: null,
  comment: null,
  identity: null,
  generated: null,
  collation: null,
});
const registered = [column('id', false), column('Name'), column('email')];
const seen = (...names: string[]) => names.map((name) => ({ name, type: 'string' }));
const summary = (d: ReturnType<typeof driftOf>) => ({
  drift: d.drift,
  changes: d.changes.map((c) => [c.category, c.name, c.compatibility]),
});

describe('drift of a schema facet from the registered columns (names only)', () => {
  it('is none for the same names, whatever their case and types', () => {
    expect(summary(driftOf(registered, seen('id', 'name', 'EMAIL'), 'postgres14'))).toEqual({
      drift: 'none',
      changes: [],
    });
  });

  it('classes a missing column breaking and an extra field a compatible nullable addition', () => {
    expect(summary(driftOf(registered, seen('id', 'Name'), 'postgres14'))).toEqual({
      drift: 'breaking',
      changes: [['column_removed', 'email', 'breaking']],
    });
    expect(summary(driftOf(registered, seen('id', 'Name', 'email', 'phone'), 'postgres14'))).toEqual({
      drift: 'compatible',
      changes: [['column_added', 'phone', 'compatible']],
    });
  });

  it("follows the flavor's rules: an Avro field added without a default is breaking", () => {
    expect(driftOf(registered, seen('id', 'Name', 'email', 'phone'), 'avro').drift).toBe('breaking');
  });

  it('compares a dataset without a version as empty: every field an addition', () => {
    expect(summary(driftOf([], seen('a'), null))).toEqual({
      drift: 'compatible',
      changes: [['column_added', 'a', 'compatible']],
    });
  });

  describe('by type (ADR 0057)', () => {
    const typed = (
      name: string,
      code: string | null,
      params: Record<string, unknown> | null = null,
      native: string | null = null,
    ): RegisteredColumn => ({
      ...column(name),
      code,
      params,
      native_type: native,
    });
    const orders = [
      typed('id', 'integer'),
      typed('day', 'varchar', { length: 64 }),
      typed('geo', null, null, 'geography'),
    ];
    const facet = (...fields: [string, string | null][]) => fields.map(([name, type]) => ({ name, type }));

    it('maps the names to the flavor: int4 is integer, varchar without a length is varchar(64)', () => {
      expect(
        summary(
          driftOf(orders, facet(['id', 'int4'], ['day', 'varchar'], ['geo', 'GEOGRAPHY']), 'postgres14'),
        ),
      ).toEqual({
        drift: 'none',
        changes: [],
      });
    });

    it('classes a wider type compatible and a narrower or another one breaking', () => {
      expect(
        summary(
          driftOf(orders, facet(['id', 'bigint'], ['day', 'varchar'], ['geo', 'geography']), 'postgres14'),
        ),
      ).toEqual({
        drift: 'compatible',
        changes: [['type_changed', 'id', 'compatible']],
      });
      expect(
        summary(
          driftOf(orders, facet(['id', 'smallint'], ['day', 'text'], ['geo', 'geography']), 'postgres14'),
        ).changes,
      ).toEqual([
        ['type_changed', 'id', 'breaking'],
        ['type_changed', 'day', 'compatible'],
      ]);
    });

    it('compares an unknown name as text and a field without a type by its name only', () => {
      expect(
        summary(driftOf(orders, facet(['id', null], ['day', null], ['geo', 'geometry']), 'postgres14'))
          .changes,
      ).toEqual([['type_changed', 'geo', 'breaking']]);
    });
  });
});
