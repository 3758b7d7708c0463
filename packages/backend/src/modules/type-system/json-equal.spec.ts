import { describe, expect, it } from '@jest/globals';
import { nestedDeeperThan } from './json-depth.js';
import { jsonEqual } from './json-equal.js';

describe('jsonEqual', () => {
  it('compares JSON values deeply, ignoring key order and undefined members', () => {
    expect(jsonEqual({ a: [1, { b: 'x' }], c: null }, { c: null, a: [1, { b: 'x' }], d: undefined })).toBe(
      true,
    );
    expect(jsonEqual({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });

  it('compares values of any depth without overflowing the stack', () => {
    let a: unknown = 1;
    let b: unknown = 1;
    for (let i = 0; i < 100_000; i++) {
      a = [{ k: a }];
      b = [{ k: b }];
    }
    expect(jsonEqual(a, b)).toBe(true);
    expect(nestedDeeperThan(a, 199_999)).toBe(true);
    expect(nestedDeeperThan(a, 200_000)).toBe(false);
  });
});
