// The watermark codec (reference §5.4, conformance case 99): tagged kinds, Python-compatible text,
// reserved keys, and the decoder's error cases. Provider-independent.
import { describe, expect, it } from '@jest/globals';
import {
  deserializeWatermark,
  isWatermarkEmpty,
  serializeWatermark,
  WatermarkDate,
  WatermarkDateTime,
  WatermarkDecimal,
  WatermarkError,
  WatermarkTime,
  type Watermark,
} from '../src/index.js';
import { thrownMessage } from './fixtures.js';

const decodeError = (text: string): string => thrownMessage(() => deserializeWatermark(text), WatermarkError);

describe('case 99: WatermarkSerializer', () => {
  it('writes the text Python json.dumps(sort_keys=True) writes', () => {
    const text = serializeWatermark({
      c: 'é',
      b: 1,
      a: new WatermarkDateTime('2025-06-15T10:30:00+00:00'),
    });
    expect(text).toBe('{"a": {"__datetime__": "2025-06-15T10:30:00+00:00"}, "b": 1, "c": "\\u00e9"}');
    expect(
      serializeWatermark({ z: { y: [1, 2], x: null }, f: 1.5, small: 1e-7, big: 1.5e300, t: true }),
    ).toBe('{"big": 1.5e+300, "f": 1.5, "small": 1e-07, "t": true, "z": {"x": null, "y": [1, 2]}}');
    expect(serializeWatermark({ huge: 12345678901234567890n })).toBe('{"huge": 12345678901234567890}');
  });

  it('tags dates, times, decimals, bytes and instants', () => {
    expect(serializeWatermark({ d: new WatermarkDate('2025-06-15') })).toBe(
      '{"d": {"__date__": "2025-06-15"}}',
    );
    expect(serializeWatermark({ t: new WatermarkTime('10:30:00') })).toBe('{"t": {"__time__": "10:30:00"}}');
    expect(serializeWatermark({ at: new Date('2025-06-15T10:30:00.123Z') })).toBe(
      '{"at": {"__datetime__": "2025-06-15T10:30:00.123000+00:00"}}',
    );
    expect(serializeWatermark({ at: new Date('2025-06-15T10:30:00Z') })).toBe(
      '{"at": {"__datetime__": "2025-06-15T10:30:00+00:00"}}',
    );
  });

  it('round-trips decimals and bytes with their types', () => {
    const watermark: Watermark = {
      amount: new WatermarkDecimal('001.2300'),
      blob: new Uint8Array([0, 1, 254, 255]),
      naive: new WatermarkDateTime('2025-06-15T10:30:00.000001'),
      nested: { when: new WatermarkDate('2024-02-29'), list: [new WatermarkTime('23:59:59.5')] },
      __date_folder_partition__: '2025/06/15',
    };
    const decoded = deserializeWatermark(serializeWatermark(watermark));
    expect(decoded['amount']).toEqual(new WatermarkDecimal('001.2300'));
    expect(decoded['blob']).toEqual(new Uint8Array([0, 1, 254, 255]));
    expect(decoded['naive']).toEqual(new WatermarkDateTime('2025-06-15T10:30:00.000001'));
    expect((decoded['naive'] as WatermarkDateTime).isAware).toBe(false);
    expect(decoded['nested']).toEqual({
      when: new WatermarkDate('2024-02-29'),
      list: [new WatermarkTime('23:59:59.5')],
    });
    expect(decoded['__date_folder_partition__']).toBe('2025/06/15');
    expect(serializeWatermark(decoded)).toBe(serializeWatermark(watermark));
  });

  it('rejects what the format cannot carry', () => {
    expect(() => serializeWatermark({ v: Number.NaN })).toThrow(
      new TypeError("Watermark value at watermark['v'] must be finite"),
    );
    expect(() => serializeWatermark({ v: [Infinity] })).toThrow(TypeError);
    expect(() => new WatermarkDecimal('NaN')).toThrow(RangeError);
    expect(() => new WatermarkDecimal('Infinity')).toThrow(RangeError);
    expect(() => serializeWatermark({ v: new Set([1]) as never })).toThrow(/Unsupported watermark container/);
    expect(() => serializeWatermark({ v: new Map() as never })).toThrow(/Unsupported watermark container/);
    expect(() => serializeWatermark({ v: { __date__: '2025-06-15' } })).toThrow(/Reserved watermark tag key/);
    expect(() => serializeWatermark({ __future__: 1 })).toThrow(/Reserved watermark tag key/);
    expect(() => serializeWatermark({ v: { __date_folder_partition__: 'x' } })).toThrow(
      /Reserved watermark tag key/,
    );
    expect(() => serializeWatermark({ v: (() => 1) as never })).toThrow(/is not JSON serializable/);
    expect(() => serializeWatermark([] as never)).toThrow(new TypeError('Watermark must be a dict'));
  });

  it('decodes empty texts to {}', () => {
    for (const text of [null, '', '  ', 'null', 'None', '{}']) expect(deserializeWatermark(text)).toEqual({});
  });

  it('reports corrupt text', () => {
    expect(decodeError('{"offset": NaN}')).toBe('Invalid watermark JSON');
    expect(decodeError('not json')).toBe('Invalid watermark JSON');
    expect(decodeError('[1,2,3]')).toBe('Watermark JSON must contain an object');
    expect(decodeError('{"a": {"__datetime__": "yesterday"}}')).toBe(
      "Invalid datetime watermark value for 'a'",
    );
    expect(decodeError('{"a": {"__date__": "2025-02-30"}}')).toBe("Invalid date watermark value for 'a'");
    expect(decodeError('{"a": {"__time__": "25:00"}}')).toBe("Invalid time watermark value for 'a'");
    expect(decodeError('{"a": {"__binary__": "not base64!"}}')).toBe(
      "Invalid binary watermark value for 'a'",
    );
    expect(decodeError('{"a": {"__decimal__": "1.2.3"}}')).toBe("Invalid decimal watermark value for 'a'");
    expect(decodeError('{"a": {"__date__": "2025-06-15", "x": 1}}')).toBe("Invalid watermark tag for 'a'");
    expect(decodeError('{"a": {"__future_type__": "x"}}')).toBe("Invalid watermark tag for 'a'");
  });

  it('keeps untagged strings as strings', () => {
    expect(deserializeWatermark('{"updated_at": "2025-06-15T10:30:00"}')).toEqual({
      updated_at: '2025-06-15T10:30:00',
    });
  });

  it('isWatermarkEmpty', () => {
    expect(isWatermarkEmpty(null)).toBe(true);
    expect(isWatermarkEmpty({})).toBe(true);
    expect(isWatermarkEmpty({ a: null, b: null })).toBe(true);
    expect(isWatermarkEmpty({ a: 0 })).toBe(false);
  });

  it('datetimes keep their precision and convert to instants', () => {
    const value = new WatermarkDateTime('2025-06-15 10:30:00.123456+02:00');
    expect(value.isAware).toBe(true);
    expect(value.toDate().toISOString()).toBe('2025-06-15T08:30:00.123Z');
    expect(new WatermarkDateTime('2025-06-15T10:30:00').toDate().toISOString()).toBe(
      '2025-06-15T10:30:00.000Z',
    );
  });
});
