import { z } from 'zod';
import { COMPATIBILITY_DIRECTIONS, COMPATIBILITY_LEVELS } from '../version-changes/compatibility-rules.js';
import { CompatibilityRuleSchema } from './version-change.js';

// The level, a violation and a forced publish's record (ADR 0048), apart from entities/compatibility.ts
// so that a schema version (which keeps its override) can name them without an import cycle.

export const CompatibilityLevelSchema = z
  .enum(COMPATIBILITY_LEVELS)
  .describe(
    "Schema Registry's levels: BACKWARD — the new version reads data written under the previous one; " +
      'FORWARD — the previous version reads data written under the new one; FULL — both; _TRANSITIVE — ' +
      'against every earlier version, not only the latest; NONE — nothing is checked',
  )
  .meta({ id: 'CompatibilityLevel' });

export const CompatibilityViolationSchema = z
  .object({
    version_num: z.int().describe('The earlier version the new one was compared with'),
    direction: z
      .enum(COMPATIBILITY_DIRECTIONS)
      .describe('backward: the new version cannot read data of that version; forward: the reverse'),
    rule: CompatibilityRuleSchema,
    category: z.string().describe('The change category (SchemaChange.category)'),
    name: z.string().nullable().describe('The column, constraint or index; null for the table itself'),
    reason: z.string(),
  })
  .meta({ id: 'CompatibilityViolation' });
export type CompatibilityViolation = z.infer<typeof CompatibilityViolationSchema>;

/** A forced publish as the version's history keeps it. */
export const CompatibilityOverrideSchema = z
  .object({
    reason: z.string(),
    forced_by: z.uuid().nullable(),
    level: CompatibilityLevelSchema,
    violations: z.array(CompatibilityViolationSchema),
  })
  .meta({ id: 'CompatibilityOverride' });
export type CompatibilityOverride = z.infer<typeof CompatibilityOverrideSchema>;
