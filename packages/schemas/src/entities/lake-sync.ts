import { z } from 'zod';
import { jsonObject, longText, text } from '../common/text.js';
import { DatasetLayerSchema } from './dataset.js';

/**
 * `POST /datasets/{id}/lake-sync` (AIDE v2 §9.4): mirror a dataset's current version into an Iceberg
 * table of a lake system. The original's body, with `target_layer` checked against the layers.
 */
export const LakeSyncRequestSchema = z
  .strictObject({
    target_system_id: z.uuid(),
    target_layer: DatasetLayerSchema.describe('Strictly after the source layer (the link rule)'),
    db_name: text(255),
    table_name: text(255),
    catalog_uri: longText(2000).min(1),
    location: longText(2000).nullish(),
    partition_cols: z.array(text(255)).max(100).nullish(),
    is_external: z.boolean().default(true),
    overrides: z
      .record(text(255), z.strictObject({ data_type_code: text(64), type_params: jsonObject.nullish() }))
      .nullish()
      .describe('Per source column: the Iceberg type to use instead of the cast rules'),
    tech_template_id: z.uuid().nullish(),
    tech_overrides: z
      .array(z.strictObject({ name: text(255), type_code: text(64).nullish() }))
      .max(200)
      .nullish(),
  })
  .meta({ id: 'LakeSyncRequest' });
export type LakeSyncRequest = z.input<typeof LakeSyncRequestSchema>;

export const LAKE_SYNC_WARNINGS = ['OVERRIDE_APPLIED', 'UNSUPPORTED_TYPE_FALLBACK', 'UNSAFE_CAST'] as const;

export const LakeSyncResultSchema = z
  .object({
    target_dataset_id: z.uuid(),
    target_dataset_schema_id: z.uuid(),
    dataset_link_id: z.uuid(),
    mapped_field_count: z.int(),
    tech_field_count: z.int(),
    warnings: z.array(
      z.object({ field_name: z.string(), code: z.enum(LAKE_SYNC_WARNINGS), detail: z.string() }),
    ),
  })
  .meta({ id: 'LakeSyncResult' });
export type LakeSyncResult = z.infer<typeof LakeSyncResultSchema>;
