import type { ParamsIssue } from './params-schema-error.js';

/** Cast safety, as in the original: implicit (lossless), safe (explicit but safe), unsafe (may lose data or fail). */
export const CAST_SAFETIES = ['implicit', 'safe', 'unsafe'] as const;
export type CastSafety = (typeof CAST_SAFETIES)[number];

/** Target param name → `"@<source param>"` (copied) or a literal JSON value. */
export type ParamMapping = Record<string, unknown>;

const REFERENCE_PREFIX = '@';

/**
 * Derives a cast target's params from the source params: a `"@name"` value copies the source's `name`
 * (dropped when the source lacks it or it is null), any other value is a literal.
 */
export function applyParamMapping(
  mapping: ParamMapping,
  sourceParams: Record<string, unknown> | null | undefined,
): Record<string, unknown> {
  const target: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(mapping)) {
    const reference = referencedParam(spec);
    if (reference === null) {
      target[name] = spec;
    } else if (
      sourceParams !== null &&
      sourceParams !== undefined &&
      Object.hasOwn(sourceParams, reference)
    ) {
      const value = sourceParams[reference];
      if (value !== null && value !== undefined) {
        target[name] = value;
      }
    }
  }
  return target;
}

/** The source param a mapping value copies (`"@precision"` → `precision`), or null for a literal. */
export function referencedParam(spec: unknown): string | null {
  return typeof spec === 'string' && spec.startsWith(REFERENCE_PREFIX)
    ? spec.slice(REFERENCE_PREFIX.length)
    : null;
}

/**
 * Checks a mapping against the two data types' parameters: every target key must be a target param and
 * every `@` reference a source param. Returns the problems (empty when none), paths under the mapping.
 */
export function paramMappingIssues(
  mapping: ParamMapping,
  sourceParams: readonly string[],
  targetParams: readonly string[],
): ParamsIssue[] {
  const issues: ParamsIssue[] = [];
  for (const [name, spec] of Object.entries(mapping)) {
    if (!targetParams.includes(name)) {
      issues.push({ path: [name], message: 'is not a parameter of the target type' });
    }
    const reference = referencedParam(spec);
    if (reference !== null && !sourceParams.includes(reference)) {
      issues.push({ path: [name], message: `'${reference}' is not a parameter of the source type` });
    }
  }
  return issues;
}
