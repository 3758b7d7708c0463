import { describe, expect, it } from '@jest/globals';
import { ERROR_CATALOGUE, ERROR_CODES, errorStatus, isErrorCode } from './errors/error-codes.js';

describe('error-code catalogue', () => {
  it('gives every code an HTTP error status and a detail', () => {
    for (const code of ERROR_CODES) {
      const entry = ERROR_CATALOGUE[code];
      expect([400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 428, 429, 500, 503]).toContain(entry.status);
      expect(entry.detail.length).toBeGreaterThan(5);
    }
  });

  it('answers every duplicate with 409 (the deliberate change from the original)', () => {
    const duplicates = ERROR_CODES.filter((c) => c.endsWith('_ALREADY_EXISTS'));
    expect(duplicates.length).toBeGreaterThan(10);
    for (const code of duplicates) expect(errorStatus(code)).toBe(409);
  });

  it('keeps the codes of the original catalogue', () => {
    for (const code of [
      'VERSION_CONFLICT',
      'HAS_DEPENDENT_ENTITIES',
      'TYPE_INSTANCE_PARAMS_INVALID',
      'INVALID_CREDENTIALS',
    ]) {
      expect(isErrorCode(code)).toBe(true);
    }
    expect(isErrorCode('toString')).toBe(false);
  });
});
