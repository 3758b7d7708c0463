// The JSON documents the crawler writes (an inspection, a crawl report: 91 MB at 10,000 tables), as
// pieces of exactly the text `JSON.stringify(value, null, 2)` gives, so that the whole document never
// exists as one string (ADR 0041) and each piece is garbage as soon as it is written (ADR 0060).

/**
 * Items of a large array serialised per piece: ~90 kB of inspection text, small enough for V8's young
 * generation (a piece of 100 tables, ~0.9 MB, went to the old generation and was collected there).
 */
const BATCH_ITEMS = 10;

/** Objects and arrays down to this depth are taken apart; deeper values are serialised whole. */
const SPLIT_DEPTH = 2;

const pad = (level: number) => '  '.repeat(level);

/** What JSON.stringify writes out as an object or array (no toJSON, no boxed primitive). */
function isContainer(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return (
    (proto === Object.prototype || proto === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/** `value` inside `depth` arrays: serialised, its lines are indented for that depth. */
function wrap(value: unknown, depth: number): unknown {
  let wrapped = value;
  for (let i = 0; i < depth; i++) wrapped = [wrapped];
  return wrapped;
}

/** The length of `depth` wrappers' "[\n" lines (before) or "\n]" lines (after), indentation included. */
const wrapperChars = (depth: number) => depth * (depth + 1);

/** `JSON.stringify(value, null, 2)` with its lines after the first indented for `depth`. */
function nested(value: unknown, depth: number): string {
  const text = JSON.stringify(wrap(value, depth), null, 2);
  return text.slice(wrapperChars(depth) + 2 * depth, text.length - wrapperChars(depth));
}

/** The items of an array at `depth`, each on its own indented lines, comma-separated, no brackets. */
function nestedItems(items: readonly unknown[], depth: number): string {
  const text = JSON.stringify(wrap(items, depth), null, 2);
  return text.slice(wrapperChars(depth + 1), text.length - wrapperChars(depth + 1));
}

/** JSON.stringify leaves these properties out (and writes null for them in an array). */
const omitted = (value: unknown) =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

/** How a document is laid out: `JSON.stringify(value)` or `JSON.stringify(value, null, 2)`. */
export type JsonLayout = 'compact' | 'pretty';

/**
 * The text of `JSON.stringify(value)` (compact) or `JSON.stringify(value, null, 2)` (pretty), in
 * pieces (concatenated, they are that text): the top levels are taken apart, large arrays in batches
 * of items.
 */
export function jsonPieces(value: unknown, layout: JsonLayout = 'pretty'): Generator<string> {
  return layout === 'pretty' ? prettyPieces(value, 0) : compactPieces(value, 0);
}

function* compactPieces(value: unknown, depth: number): Generator<string> {
  if (depth >= SPLIT_DEPTH || !isContainer(value)) {
    yield JSON.stringify(value) ?? 'undefined';
    return;
  }
  if (Array.isArray(value)) {
    yield '[';
    for (let from = 0; from < value.length; from += BATCH_ITEMS) {
      const text = JSON.stringify(value.slice(from, from + BATCH_ITEMS));
      yield `${from > 0 ? ',' : ''}${text.slice(1, -1)}`;
    }
    yield ']';
    return;
  }
  let first = true;
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (omitted(member)) continue;
    yield `${first ? '{' : ','}${JSON.stringify(key)}:`;
    first = false;
    yield* compactPieces(member, depth + 1);
  }
  yield first ? '{}' : '}';
}

function* prettyPieces(value: unknown, depth: number): Generator<string> {
  if (depth >= SPLIT_DEPTH || !isContainer(value)) {
    yield depth === 0 ? (JSON.stringify(value, null, 2) ?? 'undefined') : nested(value, depth);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield '[]';
      return;
    }
    yield '[\n';
    for (let from = 0; from < value.length; from += BATCH_ITEMS) {
      if (from > 0) yield ',\n';
      yield nestedItems(value.slice(from, from + BATCH_ITEMS), depth);
    }
    yield `\n${pad(depth)}]`;
    return;
  }
  let first = true;
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (omitted(member)) continue;
    yield `${first ? '{\n' : ',\n'}${pad(depth + 1)}${JSON.stringify(key)}: `;
    first = false;
    yield* prettyPieces(member, depth + 1);
  }
  yield first ? '{}' : `\n${pad(depth)}}`;
}
