import { z } from 'zod';
import { text } from '../common/text.js';

/**
 * What DataCoolie's schema hints carry beyond a column's type (reference §1.8, §8.4): a parse
 * `format` for string-encoded dates and timestamps, a `default_value`, and `is_active` (an inactive
 * hint is skipped). The type, precision, scale and position come from the dataset's schema version;
 * these are kept per workspace, dataset and column (ADR 0030) and apply to every version's hint of
 * that column.
 */
export const SchemaHintOverrideSchema = z
  .strictObject({
    column_name: text(255).describe('A column of the dataset (matched case-insensitively)'),
    format: text(255).nullable().optional().describe('Parse pattern, e.g. `yyyy-MM-dd`'),
    default_value: z.string().max(10_000).nullable().optional(),
    is_active: z.boolean().optional().describe('Default true; false exports the hint inactive'),
  })
  .meta({ id: 'SchemaHintOverride' });
export type SchemaHintOverrideInput = z.input<typeof SchemaHintOverrideSchema>;

/** An override as stored (every field given). */
export const StoredSchemaHintOverrideSchema = z
  .object({
    column_name: z.string(),
    format: z.string().nullable(),
    default_value: z.string().nullable(),
    is_active: z.boolean(),
  })
  .meta({ id: 'StoredSchemaHintOverride' });
export type SchemaHintOverride = z.infer<typeof StoredSchemaHintOverrideSchema>;

/** The whole set of a dataset's overrides in a workspace: a PUT replaces it. */
export const PutSchemaHintOverridesSchema = z
  .strictObject({
    overrides: z
      .array(SchemaHintOverrideSchema)
      .max(5000)
      .refine((list) => new Set(list.map((o) => o.column_name.toLowerCase())).size === list.length, {
        message: 'column names must be unique (case-insensitively)',
      }),
  })
  .meta({ id: 'PutSchemaHintOverrides' });
export type PutSchemaHintOverrides = z.input<typeof PutSchemaHintOverridesSchema>;

export const SchemaHintOverridesSchema = z
  .object({
    workspace_id: z.uuid(),
    dataset_id: z.uuid(),
    overrides: z.array(StoredSchemaHintOverrideSchema).describe('By column name'),
  })
  .meta({ id: 'SchemaHintOverrides' });
export type SchemaHintOverrides = z.infer<typeof SchemaHintOverridesSchema>;
