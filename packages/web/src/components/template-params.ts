// What a render template does with the parameters given: a parameter it only shows inside
// `{% if other is defined %}` is dropped without a word when `other` is not given (`numeric` with a
// scale but no precision renders `numeric`). The preview says so instead.

const TAG = /\{%-?\s*(if|elif|else|endif)\b([\s\S]*?)-?%\}|\{\{([\s\S]*?)\}\}/g;
const DEFINED = /^\s*([A-Za-z_]\w*)\s+is\s+defined\s*$/;

/** One parameter the template will not show, and the parameters it waits for. */
export interface DroppedParam {
  param: string;
  needs: string[];
}

/**
 * The given parameters the template drops: each occurrence of the name sits inside an `if X is
 * defined` of a parameter X not given (or the template never names it at all).
 */
export function droppedParams(template: string | null, given: readonly string[]): DroppedParam[] {
  if (template === null) return [];
  const set = new Set(given);
  // For each parameter, the enclosing `is defined` conditions of each of its occurrences.
  const seen = new Map<string, string[][]>();
  const stack: (string | null)[] = [];
  const note = (code: string) => {
    for (const name of set) {
      if (!new RegExp(`\\b${name}\\b`).test(code)) continue;
      const conditions = stack.filter((c): c is string => c !== null && c !== name);
      seen.set(name, [...(seen.get(name) ?? []), conditions]);
    }
  };
  for (const m of template.matchAll(TAG)) {
    const [, keyword, rest = '', expression] = m;
    if (expression !== undefined) note(expression);
    else if (keyword === 'if') {
      note(rest);
      stack.push(DEFINED.exec(rest)?.[1] ?? null);
    } else if (keyword === 'elif' || keyword === 'else') {
      // Past the first branch the condition is the opposite of `is defined`: no longer a requirement.
      if (stack.length) stack[stack.length - 1] = null;
      note(rest);
    } else stack.pop();
  }
  const out: DroppedParam[] = [];
  for (const param of given) {
    const occurrences = seen.get(param) ?? [];
    if (occurrences.length === 0) {
      out.push({ param, needs: [] });
      continue;
    }
    const blocked = occurrences.map((conds) => conds.filter((c) => !set.has(c)));
    if (blocked.every((b) => b.length > 0)) out.push({ param, needs: [...new Set(blocked.flat())] });
  }
  return out;
}

/** The sentence the preview shows for a dropped parameter. */
export function droppedSentence(d: DroppedParam): string {
  return d.needs.length === 0
    ? `${d.param} is not used by this type's template: it does not appear in the rendered type.`
    : `${d.param} is not rendered without ${d.needs.join(' and ')}: set ${d.needs.join(' and ')} too.`;
}
