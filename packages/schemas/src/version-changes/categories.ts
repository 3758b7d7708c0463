// The classes and categories of schema changes as plain constants, without zod: the classifier and the
// `@aide/schemas/version-changes` subpath use them as they are (the crawler loads no zod through it),
// and `entities/version-change.ts` builds the wire schemas from these same arrays (ADR 0041).

export const COMPATIBILITY_CLASSES = ['compatible', 'breaking'] as const;
export type Compatibility = (typeof COMPATIBILITY_CLASSES)[number];

export const CHANGE_CATEGORIES = [
  'table_added',
  'table_removed',
  'table_kind_changed',
  'table_comment_changed',
  'view_definition_changed',
  'column_added',
  'column_removed',
  'column_moved',
  'type_changed',
  'nullability_changed',
  'default_changed',
  'identity_changed',
  'generated_changed',
  'comment_changed',
  'collation_changed',
  'primary_key_changed',
  'unique_added',
  'unique_removed',
  'foreign_key_added',
  'foreign_key_removed',
  'foreign_key_changed',
  'index_added',
  'index_removed',
  'index_changed',
  'check_added',
  'check_removed',
  'check_changed',
  'constraint_renamed',
] as const;
export type ChangeCategory = (typeof CHANGE_CATEGORIES)[number];

/** The categories whose `name` is a column; the others name the table, a constraint or an index. */
export const COLUMN_CHANGE_CATEGORIES: ReadonlySet<ChangeCategory> = new Set<ChangeCategory>([
  'column_added',
  'column_removed',
  'column_moved',
  'type_changed',
  'nullability_changed',
  'default_changed',
  'identity_changed',
  'generated_changed',
  'comment_changed',
  'collation_changed',
]);
