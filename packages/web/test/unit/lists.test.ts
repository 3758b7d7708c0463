import { describe, expect, it } from 'vitest';
import { chunks, newestFirst } from '../../src/pages/Dataset';
import { castRuleFilters } from '../../src/pages/Reference';

describe('chunks (the PII history reads field ids 100 at a time)', () => {
  it('splits into runs of at most the size, in order, the last one shorter', () => {
    const ids = Array.from({ length: 230 }, (_, i) => i);
    const parts = chunks(ids, 100);
    expect(parts.map((p) => p.length)).toEqual([100, 100, 30]);
    expect(parts.flat()).toEqual(ids);
    expect(chunks([], 100)).toEqual([]);
  });
});

describe('newestFirst (merging the histories of several id lists)', () => {
  it('orders by creation, newest first, then by id', () => {
    const entries = [
      { id: 'a', created_at: '2026-12-01T10:00:00.000Z' },
      { id: 'c', created_at: '2026-12-03T10:00:00.000Z' },
      { id: 'b', created_at: '2026-12-01T10:00:00.000Z' },
    ];
    expect([...entries].sort(newestFirst).map((e) => e.id)).toEqual(['c', 'b', 'a']);
  });
});

describe('castRuleFilters', () => {
  const types = [
    { id: 'pg-int', system_flavor_id: 'pg' },
    { id: 'pg-text', system_flavor_id: 'pg' },
    { id: 'my-int', system_flavor_id: 'my' },
  ];

  it('asks for no filter when no flavor is chosen', () => {
    expect(castRuleFilters(types, '', '')).toEqual({});
  });

  it("filters the source, the target or both by the chosen flavor's types", () => {
    expect(castRuleFilters(types, 'pg', '')).toEqual({ source_data_type_id__in: 'pg-int,pg-text' });
    expect(castRuleFilters(types, '', 'my')).toEqual({ target_data_type_id__in: 'my-int' });
    expect(castRuleFilters(types, 'my', 'pg')).toEqual({
      source_data_type_id__in: 'my-int',
      target_data_type_id__in: 'pg-int,pg-text',
    });
  });

  it('answers null (nothing can match) for a flavor without types', () => {
    expect(castRuleFilters(types, 'none', '')).toBeNull();
    expect(castRuleFilters(types, 'pg', 'none')).toBeNull();
  });

  it('refuses a flavor with more types than an __in filter takes', () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ id: `t${i}`, system_flavor_id: 'big' }));
    expect(() => castRuleFilters(many, 'big', '')).toThrow(/101 data types/);
  });
});
