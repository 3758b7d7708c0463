import { describe, expect, it } from '@jest/globals';
import { applyParamMapping, paramMappingIssues, referencedParam } from './cast-mapping.js';

describe('applyParamMapping', () => {
  it('copies @ references and keeps literals', () => {
    expect(
      applyParamMapping({ precision: '@precision', scale: '@scale' }, { precision: 12, scale: 2 }),
    ).toEqual({
      precision: 12,
      scale: 2,
    });
    expect(applyParamMapping({ precision: 19, scale: 2, unit: 'cents' }, { anything: 1 })).toEqual({
      precision: 19,
      scale: 2,
      unit: 'cents',
    });
  });

  it('drops a reference the source lacks or has as null', () => {
    expect(
      applyParamMapping({ precision: '@precision', scale: '@scale' }, { precision: 12, scale: null }),
    ).toEqual({
      precision: 12,
    });
    expect(applyParamMapping({ length: '@length' }, null)).toEqual({});
  });

  it('does not read inherited properties', () => {
    expect(applyParamMapping({ x: '@constructor', y: '@toString' }, {})).toEqual({});
  });
});

describe('paramMappingIssues', () => {
  it('checks target keys and source references', () => {
    expect(paramMappingIssues({ precision: '@precision' }, ['precision'], ['precision', 'scale'])).toEqual(
      [],
    );
    expect(paramMappingIssues({ p: '@q' }, ['x'], ['y'])).toEqual([
      { path: ['p'], message: 'is not a parameter of the target type' },
      { path: ['p'], message: "'q' is not a parameter of the source type" },
    ]);
    expect(referencedParam('@scale')).toBe('scale');
    expect(referencedParam('scale')).toBeNull();
    expect(referencedParam(3)).toBeNull();
  });
});
