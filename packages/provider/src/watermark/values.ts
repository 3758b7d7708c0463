// Typed watermark values for the tagged kinds (reference §5.4, §5.8). JavaScript's Date has millisecond
// precision and no naive/aware distinction, so datetimes, dates and times keep their ISO text as the
// canonical payload; decimals keep their exact string form.

const DATE = String.raw`(\d{4})-(\d{2})-(\d{2})`;
const TIME = String.raw`(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:\d{2}(?::\d{2})?)?`;
const DATE_RE = new RegExp(`^${DATE}$`);
const TIME_RE = new RegExp(`^${TIME}$`);
const DATETIME_RE = new RegExp(`^${DATE}[T ]${TIME}$`);
const DECIMAL_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function validDate(year: string, month: string, day: string): boolean {
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function validTime(
  hour: string,
  minute: string,
  second: string | undefined,
  offset: string | undefined,
): boolean {
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) return false;
  if (offset === undefined || offset === 'Z') return true;
  const [h, m] = offset.slice(1).split(':').map(Number);
  return h! < 24 && m! < 60;
}

function check(valid: boolean, kind: string, text: string): void {
  if (!valid) throw new RangeError(`Invalid ${kind} watermark value: ${text}`);
}

/** A datetime as Python's `isoformat` writes it: offset optional (naive), microseconds optional. */
export class WatermarkDateTime {
  constructor(readonly iso: string) {
    const match = DATETIME_RE.exec(iso);
    check(
      match !== null &&
        validDate(match[1]!, match[2]!, match[3]!) &&
        validTime(match[4]!, match[5]!, match[6], match[8]),
      'datetime',
      iso,
    );
  }

  /** An instant, written as UTC with `+00:00`; microseconds only when non-zero (as Python does). */
  static fromDate(date: Date): WatermarkDateTime {
    const iso = date.toISOString();
    const millis = iso.slice(20, 23);
    const fraction = millis === '000' ? '' : `.${millis}000`;
    return new WatermarkDateTime(`${iso.slice(0, 19)}${fraction}+00:00`);
  }

  /** Whether the value carries a UTC offset (aware) or not (naive). */
  get isAware(): boolean {
    return /(?:Z|[+-]\d{2}:\d{2}(?::\d{2})?)$/.test(this.iso);
  }

  /** The instant (naive values are read as UTC); sub-millisecond digits are dropped. */
  toDate(): Date {
    const text = this.iso.replace(' ', 'T').replace(/(\.\d{3})\d+/, '$1');
    return new Date(this.isAware ? text : `${text}Z`);
  }

  toString(): string {
    return this.iso;
  }
}

export class WatermarkDate {
  constructor(readonly iso: string) {
    const match = DATE_RE.exec(iso);
    check(match !== null && validDate(match[1]!, match[2]!, match[3]!), 'date', iso);
  }

  toString(): string {
    return this.iso;
  }
}

export class WatermarkTime {
  constructor(readonly iso: string) {
    const match = TIME_RE.exec(iso);
    check(match !== null && validTime(match[1]!, match[2]!, match[3], match[5]), 'time', iso);
  }

  toString(): string {
    return this.iso;
  }
}

/** A finite decimal kept in its exact string form (e.g. `001.2300`). */
export class WatermarkDecimal {
  constructor(readonly value: string) {
    check(DECIMAL_RE.test(value), 'decimal', value);
  }

  toString(): string {
    return this.value;
  }
}

export type WatermarkValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Date
  | WatermarkDateTime
  | WatermarkDate
  | WatermarkTime
  | WatermarkDecimal
  | Uint8Array
  | WatermarkValue[]
  | { [key: string]: WatermarkValue };

/** A decoded watermark: a JSON object whose values may be tagged kinds. */
export type Watermark = { [key: string]: WatermarkValue };
