// A flavor type's place on the hub, as written in seeds/cast-matrix/<flavor>.yaml: `int32`,
// `decimal(@precision, @scale)`, `string(@length=65535)` (65535 when the param is unset), `decimal(19, 2)`,
// `timestamp(@unit:time_unit)` (a time-unit param read as digits: s 0, ms 3, us 6, ns 9),
// `opaque(geometry)`, or `{none: reason}` for a type with no portable meaning.
import type { ParamsJsonSchema } from '../params-schema.js';
import { HUB_PARAMS, isHubCode, TIME_UNIT_DIGITS, type HubCode } from './hub-type.js';

/**
 * A hub parameter in a declaration: copied from a type param (`@name`, `=default` when unset; `:time_unit`
 * when the param is a time unit, not a number) or fixed.
 */
export type ParamDecl = { ref: string; unset?: number; timeUnit?: true } | { value: number };

export interface HubDecl {
  code: HubCode;
  /** By hub parameter name; a missing one is unbounded (`string` holds any length). */
  params: Record<string, ParamDecl>;
  /** `opaque(name)`: the kind of opaque value (geometry, inet, …); equal names cast exactly. */
  name?: string;
}

/** A hub parameter resolved against the type's params schema. */
export type ResolvedParam =
  | { kind: 'ref'; name: string; max: number; required: boolean; unset: number }
  | { kind: 'value'; value: number }
  /** A required time-unit param: the digits of the units it admits (time32: [0, 3]). */
  | { kind: 'unit'; name: string; digits: number[] };

export interface ResolvedHub {
  code: HubCode;
  params: Record<string, ResolvedParam>;
  name?: string;
}

const DECL = /^([a-z][a-z0-9_]*)\s*(?:\((.*)\))?$/;
const ARG = /^(?:@([A-Za-z][A-Za-z0-9_]*)(?:=(\d+)|(:time_unit))?|(\d+)|([a-z][a-z0-9_.]*))$/;

/** Parses a declaration; throws an Error naming what is wrong. */
export function parseHubDecl(text: string): HubDecl {
  const match = DECL.exec(text.trim());
  if (!match) throw new Error(`'${text}' is not a hub declaration (code or code(args))`);
  const [, code = '', argText] = match;
  if (!isHubCode(code)) throw new Error(`'${code}' is not a hub type`);
  const args = argText === undefined ? [] : argText.split(',').map((a) => a.trim());
  if (code === 'opaque') {
    if (args.length !== 1 || !ARG.exec(args[0] ?? '')?.[5])
      throw new Error('opaque takes one name: opaque(geometry)');
    return { code, params: {}, name: args[0] };
  }
  const names = HUB_PARAMS[code] ?? [];
  if (args.length > names.length) throw new Error(`${code} takes at most ${names.length} parameters`);
  const params: Record<string, ParamDecl> = {};
  args.forEach((arg, i) => {
    const a = ARG.exec(arg);
    const name = names[i];
    if (!a || a[5] !== undefined)
      throw new Error(`'${arg}' is not @param, @param=default, @param:time_unit or a number`);
    if (a[1] === undefined) params[name] = { value: Number(a[4]) };
    else if (a[3] !== undefined) params[name] = { ref: a[1], timeUnit: true };
    else params[name] = a[2] === undefined ? { ref: a[1] } : { ref: a[1], unset: Number(a[2]) };
  });
  return { code, params };
}

/**
 * Resolves the declaration against the type's params schema: a copied param's largest value is its
 * `maximum` (unbounded without one); an optional param without `=default` is unbounded when unset.
 * Throws when a referenced param is not one of the type's.
 */
export function resolveHubDecl(decl: HubDecl, schema: ParamsJsonSchema): ResolvedHub {
  const params: Record<string, ResolvedParam> = {};
  for (const [hubParam, p] of Object.entries(decl.params)) {
    if ('value' in p) {
      params[hubParam] = { kind: 'value', value: p.value };
      continue;
    }
    const property = schema.properties?.[p.ref];
    if (property === undefined) throw new Error(`'@${p.ref}' is not a parameter of the type`);
    if (p.timeUnit) {
      params[hubParam] = timeUnitParam(p.ref, property.enum, (schema.required ?? []).includes(p.ref));
      continue;
    }
    params[hubParam] = {
      kind: 'ref',
      name: p.ref,
      max: property.maximum ?? Infinity,
      required: (schema.required ?? []).includes(p.ref),
      unset: p.unset ?? Infinity,
    };
  }
  return { code: decl.code, params, ...(decl.name !== undefined ? { name: decl.name } : {}) };
}

function timeUnitParam(name: string, units: unknown[] | undefined, required: boolean): ResolvedParam {
  const digits = (units ?? []).map((u) => (typeof u === 'string' ? TIME_UNIT_DIGITS[u] : undefined));
  if (!required || digits.length === 0 || digits.some((d) => d === undefined))
    throw new Error(`'@${name}:time_unit' needs a required enum of s, ms, us, ns`);
  return { kind: 'unit', name, digits: (digits as number[]).sort((a, b) => a - b) };
}

/** The largest value a hub parameter takes over every instance of the type (Infinity: unbounded). */
export function domainMax(p: ResolvedParam | undefined): number {
  if (p === undefined) return Infinity;
  if (p.kind === 'value') return p.value;
  if (p.kind === 'unit') return Math.max(...p.digits);
  return p.required ? p.max : Math.max(p.max, p.unset);
}

/** `decimal(@precision,@scale)`, `string`, `opaque(inet)`: for docs and messages. */
export function formatHub(hub: ResolvedHub | HubDecl): string {
  if (hub.code === 'opaque') return `opaque(${hub.name ?? ''})`;
  const names = HUB_PARAMS[hub.code] ?? [];
  const args = names
    .map((n) => hub.params[n])
    .map((p) => {
      if (p === undefined) return '*';
      if ('value' in p && p.value !== undefined) return String(p.value);
      if (('kind' in p && p.kind === 'unit') || ('timeUnit' in p && p.timeUnit))
        return `@${'name' in p ? p.name : p.ref}:time_unit`;
      const ref = p as { ref?: string; name?: string; unset?: number };
      const name = ref.ref ?? ref.name;
      return Number.isFinite(ref.unset) ? `@${name}=${ref.unset}` : `@${name}`;
    });
  while (args.length > 0 && args[args.length - 1] === '*') args.pop();
  return args.length > 0 ? `${hub.code}(${args.join(',')})` : hub.code;
}
