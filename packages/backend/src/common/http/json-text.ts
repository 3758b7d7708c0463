/**
 * Checks on the raw text of a JSON body, before it is parsed: what `JSON.parse` would silently change
 * or what code downstream could not survive. Node 20's `JSON.parse` gives a reviver no access to a
 * number's source text, so the text itself is scanned, once, iteratively.
 */

/** Deepest nesting of arrays and objects accepted in a body; no metadata needs more. */
export const MAX_JSON_DEPTH = 100;

/** One problem found, zod-style: where (keys and indexes) and what. */
export interface JsonTextIssue {
  path: (string | number)[];
  message: string;
  code: string;
}

interface Frame {
  /** An object (keys) or an array (indexes). */
  object: boolean;
  index: number;
  /** Offsets of the current key's quotes in the text, for the path of an issue. */
  keyStart: number;
  keyEnd: number;
  expectingKey: boolean;
}

const MAX_ISSUES = 20;
const LONE_SURROGATE = 'must not contain a lone UTF-16 surrogate (it would be stored as U+FFFD)';
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const STRING_SPECIAL = /["\\\ud800-\udfff]/g;

/**
 * Scans JSON text and returns its problems (empty when none): nesting deeper than
 * {@link MAX_JSON_DEPTH}; numbers that would not survive parsing (overflow to infinity, underflow of a
 * non-zero literal to 0, integers beyond ±(2^53−1), which lose digits); `\u` escapes that leave a lone
 * UTF-16 surrogate (stored as U+FFFD). Syntax is not checked: invalid JSON is left to the parser.
 */
export function scanJsonText(text: string): JsonTextIssue[] {
  const issues: JsonTextIssue[] = [];
  const stack: Frame[] = [];
  // A problem inside a key belongs to the object holding it, one level up.
  let inKey = false;
  const report = (message: string, code: string) => {
    issues.push({ path: pathOf(text, inKey ? stack.slice(0, -1) : stack), message, code });
  };
  let i = 0;
  while (i < text.length && issues.length < MAX_ISSUES) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === QUOTE) {
      inKey = top !== undefined && top.object && top.expectingKey;
      const end = scanString(text, i, report);
      if (inKey && top) {
        top.keyStart = i;
        top.keyEnd = end;
        top.expectingKey = false;
      }
      inKey = false;
      i = end + 1;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= MAX_JSON_DEPTH) {
        report(`must not be nested more than ${MAX_JSON_DEPTH} levels deep`, 'too_deep');
        return issues;
      }
      stack.push({ object: c === 0x7b, index: 0, keyStart: -1, keyEnd: -1, expectingKey: c === 0x7b });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */ && top) {
      if (top.object) top.expectingKey = true;
      else top.index++;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const end = numberEnd(text, i);
      const problem = numberProblem(text.slice(i, end));
      if (problem) report(problem, 'number_out_of_range');
      i = end;
      continue;
    }
    i++;
  }
  return issues;
}

/** Scans the string starting at the quote at `start`; returns the offset of its closing quote. */
function scanString(text: string, start: number, report: (message: string, code: string) => void): number {
  let i = start + 1;
  let pendingHigh = false;
  while (i < text.length) {
    // Jump over plain characters: only quotes, escapes and surrogates need a look.
    STRING_SPECIAL.lastIndex = i;
    const next = STRING_SPECIAL.exec(text)?.index ?? text.length;
    if (pendingHigh && next > i) {
      report(LONE_SURROGATE, 'lone_surrogate');
      pendingHigh = false;
    }
    i = next;
    if (i >= text.length) break;
    const c = text.charCodeAt(i);
    if (c === QUOTE) break;
    if (c !== BACKSLASH) {
      // A raw surrogate: valid only as the high half of a pair, whose low half is skipped.
      if (pendingHigh || !isPairedAt(text, i)) {
        report(LONE_SURROGATE, 'lone_surrogate');
        pendingHigh = false;
      }
      i += isPairedAt(text, i) ? 2 : 1;
      continue;
    }
    const escaped = text.charCodeAt(i + 1);
    if (escaped === 0x75 /* u */) {
      const unit = Number.parseInt(text.slice(i + 2, i + 6), 16);
      const high = unit >= 0xd800 && unit <= 0xdbff;
      const low = unit >= 0xdc00 && unit <= 0xdfff;
      if (pendingHigh && low) {
        pendingHigh = false;
      } else {
        if (pendingHigh || low) report(LONE_SURROGATE, 'lone_surrogate');
        pendingHigh = high;
      }
      i += 6;
      continue;
    }
    if (pendingHigh) {
      report(LONE_SURROGATE, 'lone_surrogate');
      pendingHigh = false;
    }
    i += 2;
  }
  if (pendingHigh) report(LONE_SURROGATE, 'lone_surrogate');
  return i;
}

function isPairedAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  const next = text.charCodeAt(i + 1);
  return c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
}

function numberEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const numeric =
      (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
    if (!numeric) break;
    i++;
  }
  return i;
}

/** Why a number literal would not be stored as written, or null when it would be. */
function numberProblem(literal: string): string | null {
  const value = Number(literal);
  if (Number.isNaN(value)) return null; // not a number: the parser reports the syntax error
  if (!Number.isFinite(value)) return 'must be a finite number (this one is too large to represent)';
  if (Math.abs(value) > Number.MAX_SAFE_INTEGER) {
    return 'must be within ±9007199254740991 (larger numbers lose digits)';
  }
  if (value === 0 && /[1-9]/.test(literal.split(/[eE]/)[0] ?? '')) {
    return 'must be representable (this one is too small and would become 0)';
  }
  return null;
}

function pathOf(text: string, stack: readonly Frame[]): (string | number)[] {
  return stack.map((frame) => {
    if (!frame.object) return frame.index;
    if (frame.keyStart < 0) return '';
    try {
      return JSON.parse(text.slice(frame.keyStart, frame.keyEnd + 1)) as string;
    } catch {
      return text.slice(frame.keyStart + 1, frame.keyEnd);
    }
  });
}
