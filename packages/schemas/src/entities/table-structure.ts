import { z } from 'zod';
import { longText, text } from '../common/text.js';

// What a crawler sees of a table besides its column types: per column the native type text, default,
// comment, identity, generation and collation; per table its kind, comment, view definition, keys,
// indexes and checks. A schema version records all of it, so a change to any of it is a new version.

export const TABLE_KINDS = [
  'table',
  'view',
  'materialized_view',
  'partitioned_table',
  'foreign_table',
] as const;
export const TableKindSchema = z.enum(TABLE_KINDS).meta({ id: 'TableKind' });
export type TableKind = z.infer<typeof TableKindSchema>;

export const IDENTITY_KINDS = ['always', 'by_default'] as const;
export const IdentityKindSchema = z.enum(IDENTITY_KINDS).meta({ id: 'IdentityKind' });
export type IdentityKind = z.infer<typeof IdentityKindSchema>;

/** SQL referential actions, spelled as the databases print them. */
export const REFERENTIAL_ACTIONS = ['NO ACTION', 'RESTRICT', 'CASCADE', 'SET NULL', 'SET DEFAULT'] as const;
export const ReferentialActionSchema = z.enum(REFERENTIAL_ACTIONS).meta({ id: 'ReferentialAction' });
export type ReferentialAction = z.infer<typeof ReferentialActionSchema>;

/** Expressions and definitions as the database prints them (defaults, view bodies, index keys). */
const expression = (max = 100_000) => longText(max);
const columnName = longText(1000).min(1);
const columnList = z.array(columnName).max(1000);
const constraintName = longText(1000).min(1).nullable();

/**
 * The per-column attributes a crawler records, all optional on publish (absent = null). Stored and
 * returned next to the normalised type tree; `native_type` is the type exactly as the database formats
 * it (`character varying(40)`, `int(10) unsigned`, `VARCHAR(20)`).
 */
export const columnAttributesShape = {
  native_type: longText(1000).nullable().optional().describe('The type as the database prints it'),
  default: expression().nullable().optional().describe('The default expression as the database prints it'),
  comment: expression().nullable().optional(),
  identity: IdentityKindSchema.nullable().optional(),
  generated: expression().nullable().optional().describe('The generation expression of a generated column'),
  collation: longText(1000).nullable().optional(),
};

/** The column attributes compared by the publish no-op rule and reported by the diff, in that order. */
export const COLUMN_ATTRIBUTES = [
  'native_type',
  'default',
  'comment',
  'identity',
  'generated',
  'collation',
] as const;
export type ColumnAttribute = (typeof COLUMN_ATTRIBUTES)[number];

export const columnAttributesReadShape = {
  native_type: z.string().nullable(),
  default: z.string().nullable(),
  comment: z.string().nullable(),
  identity: IdentityKindSchema.nullable(),
  generated: z.string().nullable(),
  collation: z.string().nullable(),
};

export const PrimaryKeySchema = z
  .strictObject({ name: constraintName.default(null), columns: columnList.min(1) })
  .meta({ id: 'PrimaryKey' });
export type PrimaryKey = z.output<typeof PrimaryKeySchema>;

export const UniqueConstraintSchema = z
  .strictObject({ name: constraintName.default(null), columns: columnList.min(1) })
  .meta({ id: 'UniqueConstraint' });
export type UniqueConstraint = z.output<typeof UniqueConstraintSchema>;

/**
 * The referenced table of a foreign key: a registered dataset by id, or a table by `schema.table`
 * (resolved to the dataset of the same system when one is registered under that name).
 */
export const ForeignKeyTargetSchema = z
  .strictObject({
    dataset_id: z.uuid().nullable().optional(),
    schema: longText(1000).nullable().optional(),
    table: longText(1000).min(1).nullable().optional(),
    columns: columnList.min(1),
  })
  .refine((t) => Boolean(t.dataset_id) || Boolean(t.table), {
    message: 'name the referenced dataset_id or table',
  })
  .meta({ id: 'ForeignKeyTarget' });

export const ForeignKeyInputSchema = z
  .strictObject({
    name: constraintName.default(null),
    columns: columnList.min(1),
    referenced: ForeignKeyTargetSchema,
    on_update: ReferentialActionSchema.default('NO ACTION'),
    on_delete: ReferentialActionSchema.default('NO ACTION'),
  })
  .refine((fk) => fk.columns.length === fk.referenced.columns.length, {
    message: 'columns and referenced.columns must have the same length',
    path: ['referenced', 'columns'],
  })
  .meta({ id: 'ForeignKeyInput' });
export type ForeignKeyInput = z.input<typeof ForeignKeyInputSchema>;

export const ForeignKeySchema = z
  .object({
    name: z.string().nullable(),
    columns: z.array(z.string()),
    referenced: z.object({
      dataset_id: z.uuid().nullable().describe('The registered dataset, when there is one'),
      schema: z.string().nullable(),
      table: z.string().nullable(),
      columns: z.array(z.string()),
    }),
    on_update: ReferentialActionSchema,
    on_delete: ReferentialActionSchema,
  })
  .meta({ id: 'ForeignKey' });
export type ForeignKey = z.infer<typeof ForeignKeySchema>;

export const IndexSchema = z
  .strictObject({
    name: longText(1000).min(1),
    unique: z.boolean().default(false),
    method: text(100).nullable().default(null).describe('Access method in lower case: btree, gin, …'),
    columns: columnList
      .nullable()
      .default(null)
      .describe('The key columns, when every key part is a plain column'),
    expression: expression()
      .nullable()
      .default(null)
      .describe('The key parts as text, when one of them is an expression'),
    include: columnList.default([]).describe('Non-key columns (INCLUDE)'),
    predicate: expression().nullable().default(null).describe('The WHERE clause of a partial index'),
    definition: expression()
      .nullable()
      .default(null)
      .describe('The full definition, where the database has one'),
  })
  .refine((i) => (i.columns?.length ?? 0) > 0 || Boolean(i.expression), {
    message: 'an index has columns or an expression',
  })
  .meta({ id: 'Index' });
export type Index = z.output<typeof IndexSchema>;

export const CheckConstraintSchema = z
  .strictObject({ name: constraintName.default(null), expression: expression().min(1) })
  .meta({ id: 'CheckConstraint' });
export type CheckConstraint = z.output<typeof CheckConstraintSchema>;

/** The per-version attributes on publish, all optional (absent = null or none). */
export const tableStructureShape = {
  table_kind: TableKindSchema.nullable().optional(),
  table_comment: expression().nullable().optional(),
  view_definition: expression(1_000_000).nullable().optional().describe('The SELECT of a view'),
  primary_key: PrimaryKeySchema.nullable().optional(),
  unique_constraints: z.array(UniqueConstraintSchema).max(1000).optional(),
  foreign_keys: z.array(ForeignKeyInputSchema).max(1000).optional(),
  indexes: z.array(IndexSchema).max(1000).optional(),
  check_constraints: z.array(CheckConstraintSchema).max(1000).optional(),
};

/** The per-version attributes as read: always present, lists sorted by name. */
export const tableStructureReadShape = {
  table_kind: TableKindSchema.nullable(),
  table_comment: z.string().nullable(),
  view_definition: z.string().nullable(),
  primary_key: z.object({ name: z.string().nullable(), columns: z.array(z.string()) }).nullable(),
  unique_constraints: z.array(z.object({ name: z.string().nullable(), columns: z.array(z.string()) })),
  foreign_keys: z.array(ForeignKeySchema),
  indexes: z.array(
    z.object({
      name: z.string(),
      unique: z.boolean(),
      method: z.string().nullable(),
      columns: z.array(z.string()).nullable(),
      expression: z.string().nullable(),
      include: z.array(z.string()),
      predicate: z.string().nullable(),
      definition: z.string().nullable(),
    }),
  ),
  check_constraints: z.array(z.object({ name: z.string().nullable(), expression: z.string() })),
};

/** The keyed lists of a version: the diff reports each as added / removed / changed, matched by name. */
export const TABLE_CONSTRAINT_LISTS = [
  'unique_constraints',
  'foreign_keys',
  'indexes',
  'check_constraints',
] as const;
export type TableConstraintList = (typeof TABLE_CONSTRAINT_LISTS)[number];

/** The single-valued attributes of a version the diff reports as `{from, to}`. */
export const TABLE_ATTRIBUTES = ['table_kind', 'table_comment', 'view_definition', 'primary_key'] as const;
export type TableAttribute = (typeof TABLE_ATTRIBUTES)[number];
