import { describe, expect, it } from '@jest/globals';
import { DRIFT_MEMO_SIZE, memoizedDriftOf } from './drift-memo.js';
import { driftOf, type RegisteredColumn } from './observed-schema-drift.js';

const column = (name: string): RegisteredColumn => ({
  name,
  nullable: true,
  default: null,
  comment: null,
  identity: null,
  generated: null,
  collation: null,
});
const seen = (...names: string[]) => names.map((name) => ({ name, type: null }));

describe('memoizedDriftOf', () => {
  it('answers what driftOf answers, the same answer for the same comparison', () => {
    const registered = [column('id'), column('name')];
    const first = memoizedDriftOf(registered, seen('id', 'email'), 'postgres14');
    expect(first).toEqual(driftOf(registered, seen('id', 'email'), 'postgres14'));
    expect(first.drift).toBe('breaking');
    expect(memoizedDriftOf([column('id'), column('name')], seen('id', 'email'), 'postgres14')).toBe(first);
  });

  it('keys on every input: another flavor, column attribute or field is another comparison', () => {
    const registered = [column('id')];
    const base = memoizedDriftOf(registered, seen('id', 'x'), 'postgres14');
    expect(memoizedDriftOf(registered, seen('id', 'x'), 'avro')).not.toBe(base);
    expect(memoizedDriftOf([{ ...column('id'), nullable: false }], seen('id', 'x'), 'postgres14')).not.toBe(
      base,
    );
    expect(memoizedDriftOf(registered, seen('id'), 'postgres14')).toEqual(
      driftOf(registered, seen('id'), 'postgres14'),
    );
  });

  it('shares frozen answers, and forgets the oldest beyond its bound', () => {
    const registered = [column('id')];
    const first = memoizedDriftOf(registered, seen('first'), null);
    expect(Object.isFrozen(first.changes)).toBe(true);
    expect(() => (first.changes as unknown[]).push({})).toThrow(TypeError);
    for (let i = 0; i < DRIFT_MEMO_SIZE; i++) memoizedDriftOf(registered, seen(`f${i}`), null);
    const again = memoizedDriftOf(registered, seen('first'), null);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
