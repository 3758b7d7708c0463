// Types of text values (CSV cells, JSON strings), after the rules docs/crawler.md lists under "Files":
// a column's type is the widest type of its sampled values (widen.ts, loose mode).
import type { TypeNode } from '../../model.js';
import { node } from './file-schema.js';
import { widen, type Widening } from './widen.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INTEGER = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][+-]?\d+)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** The type of one CSV cell; '' is a missing value (the null type: it makes the column nullable). */
export function inferCell(value: string): TypeNode {
  if (value === '') return node('null');
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === 'false') return node('boolean');
  if (INTEGER.test(value)) {
    const digits = value.replace(/^[+-]/, '');
    // Leading zeros are identifiers (zip codes, account numbers), not numbers.
    if (digits.length > 1 && digits.startsWith('0')) return node('utf8');
    const number = BigInt(value);
    if (number >= INT64_MIN && number <= INT64_MAX) return node('int64');
    return digits.length <= 76 ? node('decimal', { precision: digits.length, scale: 0 }) : node('utf8');
  }
  if (FLOAT.test(value)) return node('float64');
  return inferTemporal(value);
}

/** date32 for `YYYY-MM-DD`, timestamp for ISO 8601 date-times (with `timezone: 'UTC'` when an offset is given), else utf8. */
export function inferTemporal(value: string): TypeNode {
  const date = DATE.exec(value);
  if (date !== null) return validDate(date[1], date[2], date[3]) ? node('date32') : node('utf8');
  const time = TIMESTAMP.exec(value);
  if (
    time === null ||
    !validDate(time[1], time[2], time[3]) ||
    Number(time[4]) > 23 ||
    Number(time[5]) > 59 ||
    Number(time[6] ?? 0) > 60
  ) {
    return node('utf8');
  }
  const unit = (time[7]?.length ?? 0) > 6 ? 'ns' : 'us';
  return node('timestamp', time[8] === undefined ? { unit } : { unit, timezone: 'UTC' });
}

function validDate(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day)
  );
}

/** Accumulates the sampled values of one column. */
export class ColumnSample {
  type: TypeNode = node('null');
  nullable = false;

  add(value: TypeNode, how: Widening, path: string): void {
    if (value.data_type === 'null') this.nullable = true;
    this.type = widen(this.type, value, how, path) ?? node('utf8');
  }
}
