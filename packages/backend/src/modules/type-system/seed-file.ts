import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { paramMappingIssues, type CastSafety, type ParamMapping } from './cast-mapping.js';
import type { CastFidelity } from './cast-matrix/hub-cast.js';
import { loadMatrixTables, type MatrixTable } from './cast-matrix/matrix-table.js';
import { convertOriginalTemplate } from './original-template.js';
import {
  normalizeParamsSchema,
  paramNamesOf,
  ParamsSchemaError,
  type ParamsJsonSchema,
} from './params-schema.js';
import { CastSeedFileSchema, KindSeedFileSchema, SeedFileSchema } from './seed-file-schema.js';
import { TemplateError } from './template-error.js';
import { TEMPLATE_CONTEXT_VARIABLES, validateTemplate } from './template-validator.js';

/** `packages/backend/seeds/` (from both `src/` and `dist/`). */
export const DEFAULT_SEEDS_DIR = fileURLToPath(new URL('../../../seeds/', import.meta.url));

/** One problem in a seed file; `path` is a list of keys from the file's root. */
export interface SeedIssue {
  path: Array<string | number>;
  message: string;
}

/** A seed file that cannot be read, parsed or validated. */
export class SeedFileError extends Error {
  override readonly name = 'SeedFileError';

  constructor(
    readonly source: string,
    readonly issues: SeedIssue[],
  ) {
    super(
      `${source}: ${issues.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ')}`,
    );
  }
}

/** A seeded data type, validated: `params_schema` is JSON Schema (converted if written as rules). */
export interface SeedDataType {
  code: string;
  /** Absent when the file does not set it: the seeder then leaves the stored description alone. */
  description?: string | null;
  params_schema: ParamsJsonSchema;
  render_template: string | null;
  /** The format `params_schema` was written in. */
  params_format: 'json-schema' | 'original-rules';
}

/** A system kind; `name` is absent when a data-type file only names a kind declared elsewhere. */
export interface SeedKind {
  code: string;
  name?: string;
}

/** A validated kind seed file (`kinds/*.yaml`). */
export interface KindSeedFile {
  kinds: Array<Required<SeedKind>>;
}

/** A validated data-type seed file. */
export interface SeedFile {
  kind: SeedKind;
  flavor: { code: string; name: string; vendor: string | null; versions: string[] };
  types: SeedDataType[];
}

/** A data type named by flavor code and type code. */
export interface SeedTypeRef {
  flavor: string;
  code: string;
}

/** A validated cast rule of a cast seed file. */
export interface CastSeedRule {
  source: SeedTypeRef;
  target: SeedTypeRef;
  safety: CastSafety;
  param_mapping: ParamMapping;
  /** Given by hand only where the hub cannot classify the pair (ADR 0043). */
  fidelity?: CastFidelity;
  loss?: string[];
}

/** A validated cast seed file. */
export interface CastSeedFile {
  mappings: CastSeedRule[];
}

/**
 * Every seed file of a directory: `kinds/*.yaml` system kinds, `*.yaml` data types (one flavor each),
 * `casts/*.yaml` cast rules (checked against them).
 */
export interface SeedDirectory {
  kindFiles: Array<{ path: string; file: KindSeedFile }>;
  /** `cast-matrix/*.yaml`: each flavor's types on the hub of the cast matrix (ADR 0043). */
  matrixTables: Array<{ path: string; table: MatrixTable }>;
  /** One entry per flavor: a file declaring several flavors (`flavors:`) gives several, same path. */
  typeFiles: Array<{ path: string; file: SeedFile }>;
  castFiles: Array<{ path: string; file: CastSeedFile }>;
}

/**
 * Parses and validates a data-type seed file: strict YAML shape (unknown keys rejected), no duplicate
 * codes, every `params_schema` normalised to JSON Schema, every `render_template` converted from the
 * original style if needed and validated against the sandbox (reading only its params and the child
 * variables). A file of several flavors (`flavors:`) gives one {@link SeedFile} per flavor, each with
 * the same types.
 *
 * @throws SeedFileError listing every problem.
 */
export function parseSeedFiles(text: string, source = '<seed>'): SeedFile[] {
  const raw = checkShape(SeedFileSchema, parseYamlRoot(text, source), source);
  const issues: SeedIssue[] = [];
  const types = raw.types.map((type, index): SeedDataType => {
    const path = ['types', index];
    let params_schema: ParamsJsonSchema = { type: 'object', properties: {}, additionalProperties: false };
    let params_format: SeedDataType['params_format'] = 'json-schema';
    try {
      ({ schema: params_schema, format: params_format } = normalizeParamsSchema(type.params_schema));
    } catch (err) {
      issues.push(...nestedIssues(err, [...path, 'params_schema']));
    }
    const render_template =
      type.render_template === null ? null : convertOriginalTemplate(type.render_template);
    if (render_template !== null) {
      try {
        validateTemplate(render_template, {
          knownVariables: [...paramNamesOf(params_schema), ...TEMPLATE_CONTEXT_VARIABLES],
        });
      } catch (err) {
        issues.push(...nestedIssues(err, [...path, 'render_template']));
      }
    }
    return {
      code: type.code,
      ...(type.description !== undefined ? { description: type.description } : {}),
      params_schema,
      render_template,
      params_format,
    };
  });
  if (issues.length > 0) {
    throw new SeedFileError(source, issues);
  }
  // The shape check guarantees kind + flavor, or flavors.
  const flavors =
    raw.flavors ?? (raw.kind !== undefined && raw.flavor ? [{ ...raw.flavor, kind: raw.kind }] : []);
  return flavors.map(({ kind, ...flavor }) => ({
    kind: typeof kind === 'string' ? { code: kind } : kind,
    flavor: { ...flavor, vendor: flavor.vendor ?? null },
    types,
  }));
}

/**
 * Parses a data-type seed file of one flavor; see {@link parseSeedFiles}.
 *
 * @throws SeedFileError listing every problem, or when the file declares several flavors.
 */
export function parseSeedFile(text: string, source = '<seed>'): SeedFile {
  const files = parseSeedFiles(text, source);
  if (files.length !== 1) {
    throw new SeedFileError(source, [
      { path: ['flavors'], message: 'declares several flavors: read it with parseSeedFiles' },
    ]);
  }
  return files[0];
}

/** Parses and validates a kind seed file (strict shape, no duplicate codes). */
export function parseKindSeedFile(text: string, source = '<kind seed>'): KindSeedFile {
  return checkShape(KindSeedFileSchema, parseYamlRoot(text, source), source);
}

/** Reads a kind seed file; see {@link parseKindSeedFile}. */
export async function loadKindSeedFile(path: string): Promise<KindSeedFile> {
  return parseKindSeedFile(await readSource(path), path);
}

/** Reads a data-type seed file of one flavor; see {@link parseSeedFile}. */
export async function loadSeedFile(path: string): Promise<SeedFile> {
  return parseSeedFile(await readSource(path), path);
}

/** Reads a data-type seed file, one {@link SeedFile} per flavor it declares; see {@link parseSeedFiles}. */
export async function loadSeedFiles(path: string): Promise<SeedFile[]> {
  return parseSeedFiles(await readSource(path), path);
}

/**
 * Parses and validates a cast seed file (strict shape, no duplicate (source, target) pairs). Whether the
 * types exist is checked separately by {@link checkCastSeedFile}.
 *
 * @throws SeedFileError listing every problem.
 */
export function parseCastSeedFile(text: string, source = '<cast seed>'): CastSeedFile {
  const raw = checkShape(CastSeedFileSchema, parseYamlRoot(text, source), source);
  return {
    mappings: raw.mappings.map((rule) => ({
      source: rule.source,
      target: rule.target,
      safety: rule.safety,
      param_mapping: rule.param_mapping ?? rule.params ?? {},
      ...(rule.fidelity !== undefined ? { fidelity: rule.fidelity } : {}),
      ...(rule.loss !== undefined ? { loss: rule.loss } : {}),
    })),
  };
}

/** Reads a cast seed file; see {@link parseCastSeedFile}. */
export async function loadCastSeedFile(path: string): Promise<CastSeedFile> {
  return parseCastSeedFile(await readSource(path), path);
}

/**
 * Checks a cast seed file against data-type seed files: both sides of each rule must exist, every
 * mapped key must be a target parameter and every `@` reference a source parameter.
 *
 * @throws SeedFileError listing every problem.
 */
export function checkCastSeedFile(
  casts: CastSeedFile,
  typeFiles: readonly SeedFile[],
  source = '<cast seed>',
): void {
  const types = new Map<string, SeedDataType>();
  for (const file of typeFiles) {
    for (const type of file.types) {
      types.set(`${file.flavor.code}\u0000${type.code}`, type);
    }
  }
  const issues: SeedIssue[] = [];
  casts.mappings.forEach((rule, index) => {
    const sourceType = types.get(`${rule.source.flavor}\u0000${rule.source.code}`);
    const targetType = types.get(`${rule.target.flavor}\u0000${rule.target.code}`);
    for (const [side, ref, type] of [
      ['source', rule.source, sourceType],
      ['target', rule.target, targetType],
    ] as const) {
      if (type === undefined) {
        issues.push({
          path: ['mappings', index, side],
          message: `DataType not found for flavor='${ref.flavor}' code='${ref.code}'. Seed data types first.`,
        });
      }
    }
    if (sourceType !== undefined && targetType !== undefined) {
      const mappingIssues = paramMappingIssues(
        rule.param_mapping,
        paramNamesOf(sourceType.params_schema),
        paramNamesOf(targetType.params_schema),
      );
      issues.push(
        ...mappingIssues.map((issue) => ({
          ...issue,
          path: ['mappings', index, 'param_mapping', ...issue.path],
        })),
      );
    }
  });
  if (issues.length > 0) {
    throw new SeedFileError(source, issues);
  }
}

/**
 * Loads every seed file of `dir` (default {@link DEFAULT_SEEDS_DIR}), in file-name order (kinds, then
 * data types, then cast rules), and checks the cast files against the data-type files.
 *
 * @throws SeedFileError on the first invalid file.
 */
export async function loadSeedDirectory(dir: string = DEFAULT_SEEDS_DIR): Promise<SeedDirectory> {
  const kindFiles = [];
  for (const path of await yamlFilesIn(join(dir, 'kinds'))) {
    kindFiles.push({ path, file: await loadKindSeedFile(path) });
  }
  const typeFiles = [];
  for (const path of await yamlFilesIn(dir)) {
    for (const file of await loadSeedFiles(path)) typeFiles.push({ path, file });
  }
  const matrixTables = [];
  for (const path of await yamlFilesIn(join(dir, 'cast-matrix'))) {
    const tables = await loadMatrixTables(
      path,
      typeFiles.map((t) => t.file),
    );
    for (const table of tables) matrixTables.push({ path, table });
  }
  const castFiles = [];
  for (const path of await yamlFilesIn(join(dir, 'casts'))) {
    const file = await loadCastSeedFile(path);
    checkCastSeedFile(
      file,
      typeFiles.map((t) => t.file),
      path,
    );
    castFiles.push({ path, file });
  }
  return { kindFiles, typeFiles, matrixTables, castFiles };
}

/** The file name without directory and extension (`seeds/postgres14.yaml` → `postgres14`). */
export function seedFileStem(path: string): string {
  return basename(path, extname(path));
}

async function yamlFilesIn(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return [];
    }
    throw err;
  }
  return entries
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map((entry) => join(dir, entry.name))
    .sort();
}

async function readSource(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new SeedFileError(path, [{ path: [], message: `cannot read file: ${(err as Error).message}` }]);
  }
}

function parseYamlRoot(text: string, source: string): Record<string, unknown> {
  let root: unknown;
  try {
    root = parseYaml(text, { uniqueKeys: true, maxAliasCount: 100 });
  } catch (err) {
    throw new SeedFileError(source, [{ path: [], message: `invalid YAML: ${(err as Error).message}` }]);
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw new SeedFileError(source, [{ path: [], message: 'the root of a seed file must be a mapping' }]);
  }
  return root as Record<string, unknown>;
}

function checkShape<S extends z.ZodType>(schema: S, root: unknown, source: string): z.output<S> {
  const result = schema.safeParse(root);
  if (!result.success) {
    throw new SeedFileError(
      source,
      result.error.issues.map((issue) => ({ path: issue.path.map(pathKey), message: issue.message })),
    );
  }
  return result.data;
}

function pathKey(key: PropertyKey): string | number {
  return typeof key === 'number' ? key : String(key);
}

function nestedIssues(err: unknown, prefix: Array<string | number>): SeedIssue[] {
  if (err instanceof ParamsSchemaError) {
    return err.issues.map((issue) => ({ path: [...prefix, ...issue.path], message: issue.message }));
  }
  if (err instanceof TemplateError) {
    return [{ path: prefix, message: err.message }];
  }
  throw err;
}
