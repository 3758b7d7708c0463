import { describe, expect, it } from '@jest/globals';
import { MAX_JSON_DEPTH, scanJsonText } from './json-text.js';

const codes = (text: string) => scanJsonText(text).map((issue) => `${issue.path.join('.')}:${issue.code}`);

describe('scanJsonText', () => {
  it('accepts what JSON.parse keeps as written', () => {
    for (const text of [
      '{"a":[1,-0,0.0,1.5e-300,-9007199254740991,9007199254740991,1E5,2.5e+3]}',
      '{"s":"\\ud83d\\ude00 😀 \\\\ud800 is text"}',
      '{"\\u00e9t\\u00e9":"\\n\\t\\/"}',
      `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`,
      '"just a string"',
      '',
    ]) {
      expect({ text, issues: scanJsonText(text) }).toEqual({ text, issues: [] });
    }
  });

  it('names the path of numbers that would be altered', () => {
    expect(
      codes('{"a":{"b":[0,1e309]},"c":-1e400,"d":[[123456789012345678]],"e":0.0e-999,"f":5e-325}'),
    ).toEqual([
      'a.b.1:number_out_of_range',
      'c:number_out_of_range',
      'd.0.0:number_out_of_range',
      'f:number_out_of_range',
    ]);
  });

  it('finds lone surrogates written as escapes, and only those', () => {
    expect(
      codes(
        '["\\ud800","\\udc00","\\ud800\\ud800\\udc00","\\ud800x","\\ud800\\n","\\ud83d\\ude00","\\\\ud800"]',
      ),
    ).toEqual([
      '0:lone_surrogate',
      '1:lone_surrogate',
      '2:lone_surrogate',
      '3:lone_surrogate',
      '4:lone_surrogate',
    ]);
    // A raw lone surrogate can only come from a string, not from decoded UTF-8, but is refused too.
    expect(codes(`{"k":"a\ud800"}`)).toEqual(['k:lone_surrogate']);
    expect(codes('{"ok":1,"\\udfff":2}')).toEqual([':lone_surrogate']);
  });

  it('stops at the first level past the depth limit, whatever the depth', () => {
    const deep = `{"a":${'['.repeat(1_000_000)}`;
    const issues = scanJsonText(deep);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.code).toBe('too_deep');
    expect(issues[0]?.path).toHaveLength(MAX_JSON_DEPTH);
    expect(issues[0]?.path[0]).toBe('a');
  });

  it('leaves syntax errors to the parser, without failing on them', () => {
    for (const text of ['{"a":', '{"a":"unterminated', ']]]]', '{"a":1e}', '{"a":--1}', '"\\u12"']) {
      expect(() => scanJsonText(text)).not.toThrow();
    }
  });
});
