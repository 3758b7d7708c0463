import type { ComparableType } from './comparable.js';

// The text of a type tree for people: what change reasons and the crawler's reports print.

/** A name as SQL would need it: bare when it is a plain lower-case identifier, else double-quoted. */
export function quoteName(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

/**
 * The order the data types' params schemas declare their params in (the seeds: `numeric(precision,
 * scale)`, `varchar(length)`, `interval(precision, interval_fields)`, …); params read back from the
 * registry come in any key order, so they are never printed by object key order. Params not listed
 * follow, by name.
 */
const PARAM_ORDER = ['name', 'length', 'precision', 'scale', 'interval_fields', 'labels'];

function paramRank(key: string): number {
  const rank = PARAM_ORDER.indexOf(key);
  return rank === -1 ? PARAM_ORDER.length : rank;
}

/** A type's param values in their declared order. */
export function orderedParams(params: ComparableType['params']): unknown[] {
  return Object.entries(params ?? {})
    .sort(([a], [b]) => paramRank(a) - paramRank(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([, value]) => value);
}

const paramText = (value: unknown) =>
  typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);

/** `varchar(40)`, `array<integer>`, `composite(public.address)<street: text, zip: varchar(10)>`. */
export function renderTypeNode(type: ComparableType): string {
  const params = orderedParams(type.params);
  let text = params.length > 0 ? `${type.data_type}(${params.map(paramText).join(',')})` : type.data_type;
  if (type.children !== undefined && type.children.length > 0) {
    const children = type.children.map(({ slot, type: child }) =>
      slot.startsWith('field:')
        ? `${quoteName(slot.slice(6))}: ${renderTypeNode(child)}`
        : renderTypeNode(child),
    );
    text += `<${children.join(', ')}>`;
  }
  return text;
}
