// How a value of one hub type becomes a value of another (ADR 0043): exact, widening or lossy (with
// what is lost), or not at all. The generator asks this of every (source type, target type) pair.
import type { CastFidelity } from '@aide/schemas';
import { domainMax, type ResolvedHub, type ResolvedParam } from './hub-decl.js';
import {
  CONTAINERS,
  familyOf,
  FLOAT_MANTISSA,
  HUB_PARAMS,
  INTEGERS,
  integerDigits,
  integerFits,
  MAP_KEY_BREADTH,
  TIME_UNIT_DIGITS,
  type HubCode,
} from './hub-type.js';

export { CAST_FIDELITIES, type CastFidelity } from '@aide/schemas';

/** One way to cast a source type into a target type. */
export interface HubConversion {
  fidelity: CastFidelity;
  /** What some values lose (lossy only): `range`, `precision above 6`, `time zone`, … */
  loss: string[];
  /** Instances the cast refuses rather than lose anything (a copied param above the target's maximum). */
  limits: string[];
  /** 0 same hub type, 1 same family, 2 another family, 3 the value's text form. Smaller is closer. */
  distance: number;
  /** Target param → `@source param` or a literal (the cast rule's param_mapping). */
  mapping: Record<string, unknown>;
}

const RANK: Record<CastFidelity, number> = { exact: 0, widening: 1, lossy: 2 };

export function worstFidelity(a: CastFidelity, b: CastFidelity): CastFidelity {
  return RANK[a] >= RANK[b] ? a : b;
}

export function fidelityRank(f: CastFidelity): number {
  return RANK[f];
}

class Builder {
  fidelity: CastFidelity = 'exact';
  loss: string[] = [];
  limits: string[] = [];
  mapping: Record<string, unknown> = {};
  possible = true;
  /** Added to the distance of a second choice among otherwise equal targets. */
  secondChoice = 0;

  widen(): void {
    this.fidelity = worstFidelity(this.fidelity, 'widening');
  }

  lose(what: string): void {
    this.fidelity = 'lossy';
    if (!this.loss.includes(what)) this.loss.push(what);
  }

  done(distance: number): HubConversion | null {
    if (!this.possible) return null;
    return {
      fidelity: this.fidelity,
      loss: this.loss,
      limits: this.limits,
      distance: distance + this.secondChoice,
      mapping: this.mapping,
    };
  }
}

const show = (n: number) => (Number.isFinite(n) ? String(n) : 'unbounded');

/**
 * One hub parameter (length, precision, scale) of the source onto the target: copied (`@name`) when
 * the target takes it as a param, compared when the target fixes it. Larger always holds more.
 */
function castParam(
  hubParam: string,
  s: ResolvedParam | undefined,
  t: ResolvedParam | undefined,
  b: Builder,
): void {
  const sMax = domainMax(s);
  if (t?.kind === 'unit') return castIntoUnit(hubParam, s, t, b);
  if (t === undefined) {
    if (s !== undefined) b.widen();
    return;
  }
  if (t.kind === 'value') {
    if (s?.kind === 'value' && s.value === t.value) return;
    if (sMax <= t.value) b.widen();
    else b.lose(`${hubParam} above ${t.value}`);
    return;
  }
  // The target takes the param: copy it, or give the source's fixed value.
  if (s?.kind === 'value') {
    // Above the target's maximum: the target's finest (nanoseconds into microseconds), a declared loss.
    b.mapping[t.name] = Math.min(s.value, t.max);
    if (s.value > t.max) b.lose(`${hubParam} above ${t.max}`);
    return;
  }
  if (s?.kind === 'unit') {
    // A unit is not a number to copy: the target gets the digits of the finest unit it holds.
    b.mapping[t.name] = Math.min(sMax, t.max);
    if (sMax > t.max) b.lose(`${hubParam} above ${t.max}`);
    else b.widen();
    return;
  }
  if (s === undefined) {
    // Unbounded source: the target param stays unset.
    if (t.required) b.possible = false;
    else if (Number.isFinite(t.unset)) b.lose(`${hubParam} above ${t.unset}`);
    return;
  }
  b.mapping[t.name] = `@${s.name}`;
  if (s.max > t.max) b.limits.push(`${hubParam} above ${t.max} is refused`);
  if (!s.required) {
    if (t.required) b.limits.push(`an unset ${hubParam} is refused`);
    else if (t.unset < s.unset) b.lose(`${hubParam} above ${show(t.unset)} when unset`);
    else if (t.unset > s.unset) b.widen();
  }
}

const UNIT_OF_DIGITS = new Map(Object.entries(TIME_UNIT_DIGITS).map(([unit, digits]) => [digits, unit]));

/**
 * Into a time-unit param: the source's unit copied when the target admits each of its units, else the
 * coarsest target unit that holds the source's precision (the finest when none does: a loss).
 */
function castIntoUnit(
  hubParam: string,
  s: ResolvedParam | undefined,
  t: Extract<ResolvedParam, { kind: 'unit' }>,
  b: Builder,
): void {
  if (s?.kind === 'unit' && s.digits.every((d) => t.digits.includes(d))) {
    b.mapping[t.name] = `@${s.name}`;
    return;
  }
  const sMax = domainMax(s);
  const digits = t.digits.find((d) => d >= sMax) ?? Math.max(...t.digits);
  b.mapping[t.name] = UNIT_OF_DIGITS.get(digits);
  if (digits < sMax) b.lose(`${hubParam} above ${digits}`);
  else if (!(s?.kind === 'value' && s.value === digits)) b.widen();
}

function castParams(names: readonly string[], s: ResolvedHub, t: ResolvedHub, b: Builder): void {
  for (const name of names) castParam(name, s.params[name], t.params[name], b);
}

/** A target's own param that can be given a literal (int → decimal precision). */
function giveParam(t: ResolvedHub, hubParam: string, value: number, b: Builder): void {
  const p = t.params[hubParam];
  if (p === undefined) return;
  if (p.kind === 'unit') return castParam(hubParam, { kind: 'value', value }, p, b);
  if (p.kind === 'value') {
    if (value > p.value) b.lose(`${hubParam} above ${p.value}`);
    else if (value < p.value) b.widen();
    return;
  }
  if (value > p.max) b.possible = false;
  else b.mapping[p.name] = value;
}

/** A cast between two different hub types of one family; false when there is none. */
function withinFamily(s: ResolvedHub, t: ResolvedHub, b: Builder): boolean {
  const [sc, tc] = [s.code, t.code];
  switch (familyOf(sc)) {
    case 'integer':
      if (!integerFits(sc, tc)) b.lose('range');
      else b.widen();
      return true;
    case 'float':
      if ((FLOAT_MANTISSA[sc] ?? 0) > (FLOAT_MANTISSA[tc] ?? 0)) b.lose('precision and range');
      else b.widen();
      return true;
    case 'string':
      // char pads to its length: a string read back as char gains trailing spaces.
      if (tc === 'char') b.lose('trailing spaces');
      else b.widen();
      castParams(['length'], s, t, b);
      return true;
    case 'binary':
      if (tc === 'fixed') b.lose('length (padded or cut to the fixed length)');
      else b.widen();
      castParams(['length'], s, t, b);
      return true;
    case 'time':
    case 'timestamp':
      timeZone(s, t, b);
      castParams(['precision'], s, t, b);
      return true;
    case 'interval':
      // Only into the interval that has both parts; dropping months or days is worse than the text form.
      if (tc !== 'interval') return false;
      b.widen();
      return true;
    case 'map':
      if (MAP_KEY_BREADTH[sc] > MAP_KEY_BREADTH[tc])
        b.lose(
          tc === 'map_string_keys'
            ? 'non-string keys become strings'
            : 'keys other than integers, booleans and strings become strings',
        );
      else b.widen();
      return true;
    case 'document':
      if (sc === 'variant') b.lose('value types JSON lacks (dates, binary, decimals)');
      else b.widen();
      return true;
    default:
      return false;
  }
}

/**
 * The time zone between two times or timestamps: dropped (an instant's offset), invented (a local time
 * read as UTC), or, into a timestamp that may be either (Arrow's), kept: an instant gets `UTC`. Out of
 * that one, a local timestamp is read as UTC (the instant, more common in files, is kept).
 */
function timeZone(s: ResolvedHub, t: ResolvedHub, b: Builder): void {
  const [sc, tc] = [s.code, t.code];
  if (tc === 'timestamp_any') {
    const zone = t.params['timezone'];
    if (sc === 'timestamptz' && zone?.kind === 'ref') b.mapping[zone.name] = 'UTC';
    return;
  }
  if (sc === 'timestamp_any') {
    b.lose(tc === 'timestamp' ? 'time zone offset' : 'time zone (local time read as UTC)');
    if (tc === 'timestamp') b.secondChoice = 0.5;
  } else b.lose(sc.endsWith('tz') ? 'time zone offset' : 'time zone (local time read as UTC)');
}

/**
 * A cast across families that keeps the value's meaning (not just its text form): its distance (2, or
 * 2.5 for a second choice), or null.
 */
function acrossFamilies(s: ResolvedHub, t: ResolvedHub, b: Builder): number | null {
  const [sc, tc] = [s.code, t.code];
  const sf = familyOf(sc);
  const tf = familyOf(tc);
  if (sf === 'bool' && tf === 'integer') return (b.widen(), 2);
  if (sf === 'integer' && tf === 'bool') return (b.lose('values other than 0 and 1'), 2);
  if (sf === 'integer' && tf === 'float') {
    const { bits, signed } = INTEGERS[sc];
    if (bits - (signed ? 1 : 0) > (FLOAT_MANTISSA[tc] ?? 0)) b.lose('precision');
    else b.widen();
    return 2;
  }
  if (sf === 'integer' && tf === 'decimal') {
    const digits = integerDigits(sc);
    b.widen();
    giveParam(t, 'precision', digits, b);
    giveParam(t, 'scale', 0, b);
    const [p, scale] = [t.params['precision'], t.params['scale']];
    if (p?.kind === 'value' && scale?.kind === 'value' && p.value - scale.value < digits) b.lose('range');
    return 2;
  }
  if (sf === 'decimal' && tf === 'float') return (b.lose('precision'), 2);
  if (sf === 'decimal' && tf === 'integer') return (b.lose('fraction'), b.lose('range'), 2);
  if (sf === 'date' && tf === 'timestamp') {
    if (tc === 'timestamptz') b.lose('time zone (midnight read as UTC)');
    else b.widen();
    // A unit is required (Arrow's timestamp): a day needs none finer than seconds.
    if (t.params['precision']?.kind === 'unit') giveParam(t, 'precision', 0, b);
    return 2;
  }
  if (sf === 'timestamp' && tf === 'date') return (b.lose('time of day'), 2);
  // A uuid's canonical text (RFC 9562) is as good as its 16 bytes, and what readers expect.
  if (sc === 'uuid' && tc === 'string') return (b.widen(), 2);
  if (sc === 'uuid' && tf === 'binary') {
    b.widen();
    giveParam(t, 'length', 16, b);
    return 2.5;
  }
  if (sc === 'json' && tc === 'variant') return (b.widen(), 2);
  if (sf === 'bits' && tf === 'binary') return (b.widen(), 2);
  return null;
}

/** Every value as its text form in a string (`42`, `2026-12-07`, `{"a":1}`, `[1,2]`). */
function asText(s: ResolvedHub, t: ResolvedHub, b: Builder): boolean {
  if (t.code !== 'string') return false;
  if (familyOf(s.code) === 'binary') return false;
  if (s.code === 'null') return false;
  b.widen();
  const length = t.params['length'];
  if (length?.kind === 'value' || (length?.kind === 'ref' && length.required)) {
    // A bounded string: only as long as the text of the widest source value is known.
    const bound = length.kind === 'value' ? length.value : length.max;
    b.lose(`text longer than ${bound}`);
    if (length.kind === 'ref') b.possible = false;
  } else if (length?.kind === 'ref' && Number.isFinite(length.unset)) {
    b.lose(`text longer than ${length.unset}`);
  }
  return true;
}

/**
 * How a value of hub type `s` becomes one of `t`, or null when it cannot (no meaning-keeping cast and no
 * text form). Containers cast only to the same container (their children are cast one by one) or to a
 * document/text form.
 */
export function castHub(s: ResolvedHub, t: ResolvedHub): HubConversion | null {
  const b = new Builder();
  if (s.code === t.code) {
    if (s.code === 'opaque') return s.name === t.name ? b.done(0) : asText(s, t, b) ? b.done(3) : null;
    castParams(HUB_PARAMS[s.code] ?? [], s, t, b);
    return b.done(0);
  }
  if (CONTAINERS.has(s.code)) {
    if (familyOf(s.code) === familyOf(t.code)) return withinFamily(s, t, b) ? b.done(1) : null;
    if (familyOf(t.code) === 'document') return (b.widen(), b.done(2));
    return asText(s, t, b) ? b.done(3) : null;
  }
  if (CONTAINERS.has(t.code)) return null;
  if (familyOf(s.code) === familyOf(t.code)) return withinFamily(s, t, b) ? b.done(1) : null;
  const distance = acrossFamilies(s, t, b);
  if (distance !== null) return b.done(distance);
  return asText(s, t, b) ? b.done(3) : null;
}

/** Ordering size of a target among equally good ones: the narrowest widening target first. */
export function hubSize(code: HubCode): number {
  return INTEGERS[code]?.bits ?? (FLOAT_MANTISSA[code] !== undefined ? FLOAT_MANTISSA[code] : 0);
}
