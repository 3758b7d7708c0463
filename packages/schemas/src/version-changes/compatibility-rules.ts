// Compatibility levels (ADR 0048): Schema Registry's names and meanings, applied to every kind of
// dataset. Each change the classifier finds carries a rule id naming the exact situation (a column
// added NOT NULL without a default, a type narrowed, an Avro field removed without a default…), and
// this table says, once, whether each direction of reading survives it:
//
// - backward: the new version reads data written under the old one (consumers upgrade first; for a
//   table also: writers still on the old shape keep inserting);
// - forward: the old version reads data written under the new one (readers still on the old shape
//   keep working).
//
// A level asks for one direction, both, or none, against the latest version or every earlier one.
// Plain constants and functions, no zod (ADR 0041): the crawler loads them through the subpath.

export const COMPATIBILITY_LEVELS = [
  'NONE',
  'BACKWARD',
  'BACKWARD_TRANSITIVE',
  'FORWARD',
  'FORWARD_TRANSITIVE',
  'FULL',
  'FULL_TRANSITIVE',
] as const;
export type CompatibilityLevel = (typeof COMPATIBILITY_LEVELS)[number];

/** The direction of reading a level protects. */
export const COMPATIBILITY_DIRECTIONS = ['backward', 'forward'] as const;
export type CompatibilityDirection = (typeof COMPATIBILITY_DIRECTIONS)[number];

interface RuleVerdict {
  backward: boolean;
  forward: boolean;
  /** What the rule covers, for the ADR's table and the docs. */
  description: string;
}

const rule = (backward: boolean, forward: boolean, description: string): RuleVerdict => ({
  backward,
  forward,
  description,
});

/**
 * Every situation the classifier tells apart, with what each direction of reading makes of it. The
 * ids are stable: clients match on them (a violation names its rule).
 */
export const COMPATIBILITY_RULES = {
  TABLE_ADDED: rule(true, true, 'a new dataset: nothing to be compatible with'),
  TABLE_REMOVED: rule(
    false,
    false,
    'a dataset no longer in its source (a crawl reports it, never publishes it)',
  ),
  TABLE_KIND_STORED: rule(true, true, 'a table became a partitioned table or back: rows read the same way'),
  TABLE_KIND_CHANGED: rule(false, false, 'a table became a view (or another kind): writes or reads change'),
  DOCUMENTATION_CHANGED: rule(true, true, 'a comment changed'),
  VIEW_DEFINITION_CHANGED: rule(true, true, "a view's query changed: its columns are compared one by one"),

  COLUMN_ADDED_OPTIONAL: rule(true, true, 'a column added nullable, with a default, identity or generated'),
  COLUMN_ADDED_REQUIRED: rule(
    false,
    true,
    'a column added NOT NULL without a default: old rows have no value, old writers omit it',
  ),
  FIELD_ADDED_WITH_DEFAULT: rule(true, true, 'an Avro field added with a default'),
  FIELD_ADDED_WITHOUT_DEFAULT: rule(
    false,
    true,
    'an Avro field added without a default: the new reader cannot fill it in old records',
  ),
  FIELD_ADDED_OPTIONAL: rule(true, true, 'a Protobuf field, or an optional JSON Schema property, added'),
  FIELD_ADDED_REQUIRED: rule(false, true, 'a required JSON Schema property added: old documents lack it'),

  COLUMN_REMOVED: rule(true, false, 'a column removed: old readers and queries still name it'),
  FIELD_REMOVED_WITH_DEFAULT: rule(
    true,
    true,
    'an Avro field with a default removed: old readers fill it in with their default',
  ),
  FIELD_REMOVED_WITHOUT_DEFAULT: rule(true, false, 'an Avro field without a default removed'),
  FIELD_REMOVED_OPTIONAL: rule(
    true,
    true,
    'a Protobuf field, or an optional JSON Schema property, removed (never reuse its number)',
  ),
  FIELD_REMOVED_REQUIRED: rule(true, false, 'a required JSON Schema property removed'),

  COLUMN_MOVED: rule(false, false, 'a column moved: readers and writers by position see another order'),
  FIELD_MOVED: rule(true, true, 'a field moved: message formats resolve fields by name or number'),

  TYPE_SAME: rule(true, true, 'the same type; only the native text differs'),
  TYPE_WIDENED: rule(true, false, 'a type widened: the new reader holds every old value, not the reverse'),
  TYPE_NARROWED: rule(false, true, 'a type narrowed: the old reader holds every new value, not the reverse'),
  TYPE_CHANGED: rule(false, false, 'a type changed to one that neither holds the other'),

  NULLABILITY_RELAXED: rule(true, false, 'NOT NULL dropped: old readers may now meet nulls'),
  NULLABILITY_TIGHTENED: rule(false, true, 'made NOT NULL: old rows and old writers may hold nulls'),

  DEFAULT_CHANGED: rule(true, true, 'a default changed: only new rows are affected'),
  DEFAULT_DROPPED_REQUIRED: rule(
    false,
    true,
    'the default of a NOT NULL column dropped: old writers that omit it fail',
  ),
  IDENTITY_CHANGED: rule(true, true, 'identity generation changed, inserts keep working'),
  IDENTITY_ALWAYS: rule(false, true, 'GENERATED ALWAYS AS IDENTITY: old writers of explicit values fail'),
  IDENTITY_DROPPED_REQUIRED: rule(
    false,
    true,
    'identity dropped on a NOT NULL column: old writers that omit it fail',
  ),
  GENERATED_ADDED: rule(false, true, 'now generated: old writers of the column fail'),
  GENERATED_DROPPED: rule(true, true, 'no longer generated: the column becomes writable'),
  GENERATED_CHANGED: rule(false, false, 'computed differently: the values change meaning'),
  COLLATION_CHANGED: rule(false, false, 'comparisons, sorting and uniqueness follow another collation'),

  PRIMARY_KEY_CHANGED: rule(false, false, 'the row identity changed'),
  UNIQUE_ADDED: rule(false, true, 'a unique constraint or index added: old writers of duplicates fail'),
  UNIQUE_REMOVED: rule(true, false, 'a unique constraint or index removed: old readers may meet duplicates'),
  UNIQUE_CHANGED: rule(false, false, 'a unique index changed: what counts as a duplicate changed'),
  FOREIGN_KEY_ADDED: rule(false, true, 'a foreign key added: old writers of dangling rows fail'),
  FOREIGN_KEY_REMOVED: rule(true, false, 'a foreign key removed: old readers may meet dangling rows'),
  FOREIGN_KEY_CHANGED: rule(false, false, 'referential actions changed'),
  CHECK_ADDED: rule(false, true, 'a check added: old writers of rows it refuses fail'),
  CHECK_REMOVED: rule(true, false, 'a check removed: old readers may meet rows it refused'),
  CHECK_CHANGED: rule(false, false, 'a check changed'),
  INDEX_CHANGED: rule(true, true, 'a non-unique index added, removed or changed: performance only'),
  CONSTRAINT_RENAMED: rule(true, true, 'a constraint renamed'),
} as const satisfies Record<string, RuleVerdict>;

export type CompatibilityRule = keyof typeof COMPATIBILITY_RULES;
export const COMPATIBILITY_RULE_IDS = Object.keys(COMPATIBILITY_RULES) as CompatibilityRule[];

/** The directions a level asks for: none for NONE, one for BACKWARD/FORWARD, both for FULL. */
export function levelDirections(level: CompatibilityLevel): CompatibilityDirection[] {
  if (level === 'NONE') return [];
  if (level.startsWith('BACKWARD')) return ['backward'];
  if (level.startsWith('FORWARD')) return ['forward'];
  return ['backward', 'forward'];
}

/** Whether a level checks every earlier version (TRANSITIVE) or the latest only. */
export const isTransitive = (level: CompatibilityLevel): boolean => level.endsWith('_TRANSITIVE');

/** What a change needs of the rule table: its rule and where it is. */
export interface RuledChange {
  category: string;
  name: string | null;
  rule: CompatibilityRule;
  reason: string;
}

/** One change a level refuses: which earlier version it was compared with, and which direction fails. */
export interface RuleViolation {
  /** The earlier version the new one was compared with. */
  version_num: number;
  direction: CompatibilityDirection;
  rule: CompatibilityRule;
  category: string;
  name: string | null;
  reason: string;
}

/**
 * The changes from one earlier version that the level refuses, one violation per change and failing
 * direction, in the changes' order.
 */
export function violationsOf(
  level: CompatibilityLevel,
  changes: readonly RuledChange[],
  againstVersion: number,
): RuleViolation[] {
  const directions = levelDirections(level);
  return changes.flatMap((change) =>
    directions
      .filter((direction) => !COMPATIBILITY_RULES[change.rule][direction])
      .map((direction) => ({
        version_num: againstVersion,
        direction,
        rule: change.rule,
        category: change.category,
        name: change.name,
        reason: change.reason,
      })),
  );
}
