import { z } from 'zod';
import { MAX_BATCH_SIZE } from '../common/list-query.js';
import { ItemErrorSchema } from '../common/error-response.js';
import {
  COMPATIBILITY_DIRECTIONS,
  COMPATIBILITY_LEVELS,
  type CompatibilityLevel,
} from '../version-changes/compatibility-rules.js';
import {
  CompatibilityLevelSchema,
  CompatibilityOverrideSchema,
  CompatibilityViolationSchema,
  type CompatibilityOverride,
  type CompatibilityViolation,
} from './compatibility-override.js';
import { SchemaVersionImpactSchema } from './compat.js';
import { checkPublishedVersion, publishVersionShape } from './schema-version.js';
import { versionChangeShape } from './version-change.js';

// Compatibility levels enforced on publish (ADR 0048): Schema Registry's seven levels, per dataset,
// with a default per system and one for the registry. The rules a level applies to each change are
// the table of version-changes/compatibility-rules.ts; the wire shapes are here.

export {
  COMPATIBILITY_DIRECTIONS,
  COMPATIBILITY_LEVELS,
  CompatibilityLevelSchema,
  CompatibilityOverrideSchema,
  CompatibilityViolationSchema,
};
export type { CompatibilityLevel, CompatibilityOverride, CompatibilityViolation };

/** Where a dataset's level comes from: its own, its system's default, or the registry's. */
export const COMPATIBILITY_LEVEL_SOURCES = ['dataset', 'system', 'registry'] as const;
export const CompatibilityLevelSourceSchema = z
  .enum(COMPATIBILITY_LEVEL_SOURCES)
  .meta({ id: 'CompatibilityLevelSource' });

/** `GET|PUT /compatibility`: the registry-wide default level. */
export const RegistryCompatibilitySchema = z
  .strictObject({ level: CompatibilityLevelSchema })
  .meta({ id: 'RegistryCompatibility' });
export type RegistryCompatibility = z.infer<typeof RegistryCompatibilitySchema>;

/** `PUT /datasets/{id}/compatibility`, `PUT /systems/{id}/compatibility`: null falls back to the default. */
export const SetCompatibilitySchema = z
  .strictObject({
    level: CompatibilityLevelSchema.nullable().describe(
      'null: inherit (the system default, then the registry)',
    ),
  })
  .meta({ id: 'SetCompatibility' });
export type SetCompatibility = z.infer<typeof SetCompatibilitySchema>;

/** A system's default level as stored and as it applies. */
export const SystemCompatibilitySchema = z
  .object({
    system_id: z.uuid(),
    level: CompatibilityLevelSchema.nullable().describe("The system's own default (null: the registry's)"),
    effective_level: CompatibilityLevelSchema,
  })
  .meta({ id: 'SystemCompatibility' });
export type SystemCompatibility = z.infer<typeof SystemCompatibilitySchema>;

/** A dataset's level as it applies to its next publish, and where it comes from. */
export const DatasetCompatibilitySchema = z
  .object({
    dataset_id: z.uuid(),
    level: CompatibilityLevelSchema.nullable().describe("The dataset's own level (null: inherited)"),
    system_level: CompatibilityLevelSchema.nullable().describe("The system's default (null: inherited)"),
    registry_level: CompatibilityLevelSchema,
    effective_level: CompatibilityLevelSchema,
    source: CompatibilityLevelSourceSchema,
  })
  .meta({ id: 'DatasetCompatibility' });
export type DatasetCompatibility = z.infer<typeof DatasetCompatibilitySchema>;

/**
 * What a level makes of a would-be version: the verdict, every violation against every version
 * compared, and the change from the current version. `details` of DATASET_SCHEMA_INCOMPATIBLE (409)
 * have this shape.
 */
export const CompatibilityCheckSchema = z
  .object({
    dataset_id: z.uuid(),
    level: CompatibilityLevelSchema.describe('The level applied (the effective one)'),
    source: CompatibilityLevelSourceSchema,
    accepted: z.boolean().describe('true when a publish of this version would pass the level'),
    base_version_num: z.int().nullable().describe('The current version (null: none, always accepted)'),
    compared_versions: z
      .array(z.int())
      .describe('The versions compared: the latest, or every earlier one for a _TRANSITIVE level'),
    violations: z.array(CompatibilityViolationSchema),
    impact: SchemaVersionImpactSchema.nullable().describe(
      'When refused: the downstream links and field links the change touches; null when accepted',
    ),
    ...versionChangeShape,
  })
  .meta({ id: 'CompatibilityCheck' });
export type CompatibilityCheck = z.infer<typeof CompatibilityCheckSchema>;

/** `POST /schema-versions/check`: many datasets' would-be versions, each checked on its own. */
export const BulkCompatibilityCheckSchema = z
  .strictObject({
    items: z
      .array(
        z
          .strictObject({ dataset_id: z.uuid(), ...publishVersionShape })
          .superRefine(checkPublishedVersion)
          .meta({ id: 'CompatibilityCheckItem' }),
      )
      .min(1)
      .max(MAX_BATCH_SIZE),
  })
  .meta({ id: 'BulkCompatibilityCheck' });
export type BulkCompatibilityCheck = z.input<typeof BulkCompatibilityCheckSchema>;

export const BulkCompatibilityCheckResultSchema = z
  .object({
    items: z.array(
      z.object({
        index: z.int(),
        dataset_id: z.uuid(),
        check: CompatibilityCheckSchema.nullable().describe('null when the item failed'),
        error: ItemErrorSchema.nullable().describe('Why the item could not be checked (a bad type…)'),
      }),
    ),
    summary: z.object({ accepted: z.int(), refused: z.int(), failed: z.int() }),
  })
  .meta({ id: 'BulkCompatibilityCheckResult' });
export type BulkCompatibilityCheckResult = z.infer<typeof BulkCompatibilityCheckResultSchema>;
