import { z } from 'zod';
import { CAST_SAFETIES } from './cast-mapping.js';
import { CAST_FIDELITIES } from './cast-matrix/hub-cast.js';

const code = z
  .string()
  .max(255)
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, {
    message: 'must be an identifier (letter first, then letters, digits, _)',
  });
const name = z.string().min(1).max(1000);

/** A system kind declared in full (`kinds/*.yaml`, or inline in a data-type file as the original did). */
export const SeedKindSchema = z.strictObject({ code, name });

/**
 * `kind:` of a data-type seed file: the code of a kind declared in `kinds/*.yaml` (a kind exists before
 * any of its flavors), or the original's inline `{code, name}`, which also seeds the kind.
 */
export const SeedKindRefSchema = z.union([code, SeedKindSchema]);

/** A kind seed file (`kinds/*.yaml`): the system kinds, each by natural key `code`. */
export const KindSeedFileSchema = z
  .strictObject({ kinds: z.array(SeedKindSchema).max(1000) })
  .superRefine((file, ctx) => {
    const duplicates = duplicatesOf(file.kinds.map((k) => k.code));
    if (duplicates.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['kinds'],
        message: `Duplicate kind codes: [${duplicates.join(', ')}]`,
      });
    }
  });

/** `flavor:` of a data-type seed file; by convention the file name stem equals `code`. */
export const SeedFlavorSchema = z.strictObject({
  code,
  name,
  vendor: z.string().max(1000).nullable().optional(),
  versions: z.array(z.string().min(1).max(255)).max(100).default([]),
});

/**
 * One entry of `types:`. `params_schema` is a JSON Schema or the original rule map (default `{}`: no
 * parameters); `render_template` is Jinja2 or the original's `{param}` style (converted at load).
 */
export const SeedTypeSchema = z.strictObject({
  code,
  description: z.string().max(2000).nullable().optional(),
  params_schema: z.record(z.string(), z.unknown()).default({}),
  render_template: z.string().max(2000).nullable().default(null),
});

/** One entry of `flavors:`: a flavor and its kind, when one file declares several flavors. */
export const SeedFlavorEntrySchema = SeedFlavorSchema.extend({ kind: SeedKindRefSchema });

/**
 * A data-type seed file: the original's `kind:` + `flavor:` (plus an optional `description` per type),
 * or `flavors:`, several flavors (of several kinds) sharing one type list declared once — the file
 * flavors storage_files and sftp_files (ADR 0044).
 */
export const SeedFileSchema = z
  .strictObject({
    kind: SeedKindRefSchema.optional(),
    flavor: SeedFlavorSchema.optional(),
    flavors: z.array(SeedFlavorEntrySchema).min(1).max(20).optional(),
    types: z.array(SeedTypeSchema).max(2000),
  })
  .superRefine((file, ctx) => {
    const single = file.kind !== undefined || file.flavor !== undefined;
    if (single === (file.flavors !== undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give kind and flavor, or flavors, not both' });
    } else if (single && (file.kind === undefined || file.flavor === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [file.kind === undefined ? 'kind' : 'flavor'],
        message: 'required with kind/flavor',
      });
    }
    const duplicateFlavors = duplicatesOf((file.flavors ?? []).map((f) => f.code));
    if (duplicateFlavors.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['flavors'],
        message: `Duplicate flavor codes in seed file: [${duplicateFlavors.join(', ')}]`,
      });
    }
    const duplicates = duplicatesOf(file.types.map((type) => type.code));
    if (duplicates.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['types'],
        message: `Duplicate type codes in seed file: [${duplicates.join(', ')}]`,
      });
    }
  });

const typeRef = z.strictObject({ flavor: code, code });
const mappingValue = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);
const paramMapping = z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/), mappingValue);

/**
 * One cast rule of a cast seed file. The mapping is `param_mapping` (this registry's name) or `params`
 * (the original's name), not both.
 */
export const CastSeedRuleSchema = z
  .strictObject({
    source: typeRef,
    target: typeRef,
    safety: z.enum(CAST_SAFETIES),
    /** Only for a pair the hub cannot classify (ADR 0043); otherwise the hub's classification is used. */
    fidelity: z.enum(CAST_FIDELITIES).optional(),
    loss: z.array(z.string().min(1).max(200)).max(20).optional(),
    param_mapping: paramMapping.optional(),
    params: paramMapping.optional(),
  })
  .refine((rule) => rule.param_mapping === undefined || rule.params === undefined, {
    message: 'give param_mapping or params, not both',
    path: ['param_mapping'],
  });

/** A cast seed file: `{mappings: [...]}` as in the original's `casts_*.yaml`. */
export const CastSeedFileSchema = z
  .strictObject({ mappings: z.array(CastSeedRuleSchema).max(10_000) })
  .superRefine((file, ctx) => {
    const keys = file.mappings.map(
      (m) => `${m.source.flavor}.${m.source.code} -> ${m.target.flavor}.${m.target.code}`,
    );
    const duplicates = duplicatesOf(keys);
    if (duplicates.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['mappings'],
        message: `Duplicate cast rules: [${duplicates.join(', ')}]`,
      });
    }
  });

function duplicatesOf(values: string[]): string[] {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) {
      duplicates.add(value);
    }
    seen.add(value);
  }
  return [...duplicates];
}
