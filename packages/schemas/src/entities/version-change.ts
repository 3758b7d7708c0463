import { z } from 'zod';
import {
  CHANGE_CATEGORIES,
  COLUMN_CHANGE_CATEGORIES,
  COMPATIBILITY_CLASSES,
  type ChangeCategory,
  type Compatibility,
} from '../version-changes/categories.js';
import { COMPATIBILITY_RULE_IDS, type CompatibilityRule } from '../version-changes/compatibility-rules.js';

// How a new schema version changes what readers and writers of the dataset see: each change with its
// class, compatible or breaking. One classifier computes it (`classifyVersionChange`, ADR 0037), for the
// registry's publish and diff routes and for the crawler's report alike; the wire shapes are here, built
// from the plain constants of version-changes/categories.ts (zod-free, ADR 0041).

export { CHANGE_CATEGORIES, COLUMN_CHANGE_CATEGORIES, COMPATIBILITY_CLASSES };
export type { ChangeCategory, Compatibility };

export const CompatibilityRuleSchema = z
  .enum(COMPATIBILITY_RULE_IDS as [CompatibilityRule, ...CompatibilityRule[]])
  .describe('The situation the change is, in the table of ADR 0048 (stable ids)')
  .meta({ id: 'CompatibilityRule' });
export const CompatibilitySchema = z.enum(COMPATIBILITY_CLASSES).meta({ id: 'Compatibility' });
export const ChangeCategorySchema = z.enum(CHANGE_CATEGORIES).meta({ id: 'ChangeCategory' });

export const SchemaChangeSchema = z
  .object({
    category: ChangeCategorySchema,
    name: z
      .string()
      .nullable()
      .describe('The column, constraint or index concerned; null for changes to the table itself'),
    before: z.unknown().describe("The base version's value (null when added)"),
    after: z.unknown().describe("The new version's value (null when removed)"),
    compatibility: CompatibilitySchema,
    reason: z.string().describe('Why it is classed so, in a few words'),
    rule: CompatibilityRuleSchema,
    backward: z
      .boolean()
      .describe('Whether the new version still reads data written under the old one (ADR 0048)'),
    forward: z
      .boolean()
      .describe('Whether the old version still reads data written under the new one (ADR 0048)'),
    possible_rename: z
      .object({ from: z.string(), to: z.string() })
      .optional()
      .describe('A removed and an added column with the same type at the same position'),
  })
  .meta({ id: 'SchemaChange' });
export type SchemaChange = z.infer<typeof SchemaChangeSchema>;

/**
 * The registry's own classification of a version against the version it was published over, as the
 * publish routes answer it. A client's label of its change is never taken: this is computed by the
 * server from the two versions.
 */
export const versionChangeShape = {
  compatibility: CompatibilitySchema.nullable().describe(
    'The worst class among `changes`, computed by the registry; null when nothing changed',
  ),
  changes: z.array(SchemaChangeSchema).describe('Every change from the base version, classified'),
};

export interface VersionChange {
  compatibility: Compatibility | null;
  changes: SchemaChange[];
}
