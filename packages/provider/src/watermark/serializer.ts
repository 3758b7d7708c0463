// Watermark text codec (reference §5.4): one encoder/decoder for the tagged JSON format that providers
// store verbatim. Output matches Python's `json.dumps(..., sort_keys=True)` (", " and ": " separators,
// non-ASCII escaped) so both runtimes write the same text for the same watermark.
import {
  isPlainObject,
  DATE_FOLDER_PARTITION_KEY,
  WATERMARK_TAG_BINARY,
  WATERMARK_TAG_DATE,
  WATERMARK_TAG_DATETIME,
  WATERMARK_TAG_DECIMAL,
  WATERMARK_TAG_TIME,
  WATERMARK_TAGS,
  WatermarkError,
} from '@aide/schemas/datacoolie';
import {
  WatermarkDate,
  WatermarkDateTime,
  WatermarkDecimal,
  WatermarkTime,
  type Watermark,
  type WatermarkValue,
} from './values.js';

const RESERVED_KEY = /^__.*__$/;

function isReservedKey(key: string): boolean {
  return WATERMARK_TAGS.includes(key) || (key.length >= 4 && RESERVED_KEY.test(key));
}

/** A JSON string literal as Python writes it with `ensure_ascii=True`. */
function pythonString(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Python's float `repr` formatting: fixed notation for exponents in [-4, 16), else `1e+16` style. */
function pythonFloat(value: number): string {
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 16) {
    const text = String(value);
    return /[.e]/.test(text) ? text : `${text}.0`;
  }
  const sign = exponent < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

function tagged(tag: string, payload: string): string {
  return `{${pythonString(tag)}: ${pythonString(payload)}}`;
}

function encode(value: unknown, path: string, topLevel: boolean): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return pythonString(value);
    case 'bigint':
      return value.toString();
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`Watermark value at ${path} must be finite`);
      // Integers beyond 2^53 are floats here (use bigint for exact ones), written as Python floats.
      return Number.isSafeInteger(value) ? String(value) : pythonFloat(value);
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError(`Watermark value at ${path} must be a valid date`);
    return tagged(WATERMARK_TAG_DATETIME, WatermarkDateTime.fromDate(value).iso);
  }
  if (value instanceof WatermarkDateTime) return tagged(WATERMARK_TAG_DATETIME, value.iso);
  if (value instanceof WatermarkDate) return tagged(WATERMARK_TAG_DATE, value.iso);
  if (value instanceof WatermarkTime) return tagged(WATERMARK_TAG_TIME, value.iso);
  if (value instanceof WatermarkDecimal) return tagged(WATERMARK_TAG_DECIMAL, value.value);
  if (value instanceof Uint8Array) return tagged(WATERMARK_TAG_BINARY, Buffer.from(value).toString('base64'));
  if (value instanceof Set || value instanceof Map) {
    throw new TypeError(`Unsupported watermark container at ${path}: ${value.constructor.name}`);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item, index) => encode(item, `${path}[${index}]`, false)).join(', ')}]`;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    const members = keys.map((key) => {
      if (isReservedKey(key) && !(topLevel && key === DATE_FOLDER_PARTITION_KEY)) {
        throw new TypeError(`Reserved watermark tag key at ${path}: '${key}'`);
      }
      return `${pythonString(key)}: ${encode(value[key], `${path}['${key}']`, false)}`;
    });
    return `{${members.join(', ')}}`;
  }
  const type = typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value;
  throw new TypeError(`Object of type ${type} is not JSON serializable`);
}

/** Watermark → text. Throws TypeError for values the format cannot carry. */
export function serializeWatermark(watermark: Watermark): string {
  if (!isPlainObject(watermark)) throw new TypeError('Watermark must be a dict');
  return encode(watermark, 'watermark', true);
}

const EMPTY_TEXTS = new Set(['', '{}', 'null', 'None']);

function invalidTag(key: string): WatermarkError {
  return new WatermarkError(`Invalid watermark tag for '${key}'`);
}

function decodeTag(tag: string, payload: unknown, key: string): WatermarkValue {
  const kind = tag.slice(2, -2);
  const invalid = () => new WatermarkError(`Invalid ${kind} watermark value for '${key}'`);
  if (typeof payload !== 'string') throw invalid();
  try {
    switch (tag) {
      case WATERMARK_TAG_DATETIME:
        return new WatermarkDateTime(payload);
      case WATERMARK_TAG_DATE:
        return new WatermarkDate(payload);
      case WATERMARK_TAG_TIME:
        return new WatermarkTime(payload);
      case WATERMARK_TAG_DECIMAL:
        return new WatermarkDecimal(payload);
      default:
        if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(payload))
          throw invalid();
        return new Uint8Array(Buffer.from(payload, 'base64'));
    }
  } catch (error) {
    if (error instanceof WatermarkError) throw error;
    throw invalid();
  }
}

function restore(value: unknown, key: string): WatermarkValue {
  if (Array.isArray(value)) return value.map((item) => restore(item, key));
  if (!isPlainObject(value)) return value as WatermarkValue;
  const keys = Object.keys(value);
  const reserved = keys.filter((name) => RESERVED_KEY.test(name) && name.length >= 4);
  if (reserved.length > 0) {
    const tag = reserved[0]!;
    if (keys.length !== 1 || !WATERMARK_TAGS.includes(tag)) throw invalidTag(key);
    return decodeTag(tag, value[tag], key);
  }
  const result: Watermark = {};
  for (const name of keys) result[name] = restore(value[name], name);
  return result;
}

/** Text → watermark. Empty texts (`""`, `"{}"`, `"null"`, `"None"`) decode to `{}`. */
export function deserializeWatermark(text: string | null): Watermark {
  if (text === null) return {};
  if (typeof text !== 'string') throw new WatermarkError('Invalid watermark JSON');
  const trimmed = text.trim();
  if (EMPTY_TEXTS.has(trimmed)) return {};
  let parsed: unknown;
  try {
    // JSON.parse rejects NaN and Infinity, as the reference's decoder does.
    parsed = JSON.parse(trimmed);
  } catch (error) {
    throw new WatermarkError('Invalid watermark JSON', {}, { cause: error });
  }
  if (!isPlainObject(parsed)) throw new WatermarkError('Watermark JSON must contain an object');
  // Top-level keys are not tag-checked: `__date_folder_partition__` round-trips as a plain value.
  const result: Watermark = {};
  for (const [name, value] of Object.entries(parsed)) result[name] = restore(value, name);
  return result;
}

/** True for null, `{}`, or a watermark whose values are all null. */
export function isWatermarkEmpty(watermark: Watermark | null | undefined): boolean {
  if (watermark === null || watermark === undefined) return true;
  return Object.values(watermark).every((value) => value === null);
}
