// seeds/cast-matrix/<flavor>.yaml: where each built-in type of one flavor sits on the hub (ADR 0043).
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { paramNamesOf } from '../params-schema.js';
import type { SeedFile, SeedIssue } from '../seed-file.js';
import { SeedFileError } from '../seed-file.js';
import { parseHubDecl, resolveHubDecl, type ResolvedHub } from './hub-decl.js';

const code = z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/);

const literal = z.union([z.string().max(200), z.number(), z.boolean()]);

const TableSchema = z.strictObject({
  /** The flavor, or (`flavors`) several flavors sharing one type list (storage_files, sftp_files). */
  flavor: code.optional(),
  flavors: z.array(code).min(2).max(20).optional(),
  /** Among equally good targets in this flavor, these types first (in this order). */
  prefer: z.array(code).max(1000).default([]),
  /** Types never chosen as a cast target (serials, system identifiers): still sources. */
  not_targets: z.array(code).max(1000).default([]),
  /**
   * Every type of the flavor: its hub declaration, `{hub, target_params}` when a cast into it must also
   * set params the hub does not know (Arrow's union `mode`), or `{none: reason}` when it has no portable
   * meaning.
   */
  types: z.record(
    code,
    z.union([
      z.string().max(200),
      z.strictObject({ none: z.string().min(1).max(500) }),
      z.strictObject({ hub: z.string().max(200), target_params: z.record(code, literal) }),
    ]),
  ),
});

/**
 * A flavor type on the hub (with the literal params a cast into it sets), or the reason it has none.
 */
export type HubPlace =
  | { hub: ResolvedHub; decl: string; targetParams?: Record<string, string | number | boolean> }
  | { none: string };

/** A validated table: every type of the flavor placed (in the flavor file's order). */
export interface MatrixTable {
  flavor: string;
  /** Set when several flavors share the type list (a `flavors:` table): they cast into each other as is. */
  catalogue?: string;
  prefer: string[];
  notTargets: string[];
  /** `params`: every param name of the type (a cast inside a catalogue copies them all). */
  types: Array<{ code: string; params: string[]; place: HubPlace }>;
}

/**
 * Parses a table and checks it against its flavors' seed files: every type placed exactly once, no
 * unknown type, each declaration valid for the type's params. A `flavors:` table gives one table per
 * flavor.
 *
 * @throws SeedFileError listing every problem.
 */
export function parseMatrixTables(
  text: string,
  flavors: readonly SeedFile[],
  source = '<cast matrix>',
): MatrixTable[] {
  let root: unknown;
  try {
    root = parseYaml(text, { uniqueKeys: true });
  } catch (err) {
    throw new SeedFileError(source, [{ path: [], message: `invalid YAML: ${(err as Error).message}` }]);
  }
  const parsed = TableSchema.safeParse(root);
  if (!parsed.success) {
    throw new SeedFileError(
      source,
      parsed.error.issues.map((i) => ({
        path: i.path.map((k) => (typeof k === 'number' ? k : String(k))),
        message: i.message,
      })),
    );
  }
  const raw = parsed.data;
  if ((raw.flavor === undefined) === (raw.flavors === undefined)) {
    throw new SeedFileError(source, [{ path: ['flavor'], message: 'give flavor or flavors, not both' }]);
  }
  const codes = raw.flavors ?? [raw.flavor ?? ''];
  const catalogue = raw.flavors?.join('+');
  return codes.map((flavorCode) => {
    const flavor = flavors.find((f) => f.flavor.code === flavorCode);
    if (flavor === undefined) {
      throw new SeedFileError(source, [
        { path: ['flavor'], message: `no seed file for flavor '${flavorCode}'` },
      ]);
    }
    const table = tableOf(raw, flavor, source);
    return catalogue === undefined ? table : { ...table, catalogue };
  });
}

/** {@link parseMatrixTables} for a table of one flavor. */
export function parseMatrixTable(
  text: string,
  flavors: readonly SeedFile[],
  source = '<cast matrix>',
): MatrixTable {
  const [table, ...more] = parseMatrixTables(text, flavors, source);
  if (table === undefined || more.length > 0) {
    throw new SeedFileError(source, [{ path: ['flavors'], message: 'expected a table of one flavor' }]);
  }
  return table;
}

function tableOf(raw: z.output<typeof TableSchema>, flavor: SeedFile, source: string): MatrixTable {
  const name = flavor.flavor.code;
  const issues: SeedIssue[] = [];
  const known = new Set(flavor.types.map((t) => t.code));
  for (const typeCode of Object.keys(raw.types)) {
    if (!known.has(typeCode)) issues.push({ path: ['types', typeCode], message: `not a type of ${name}` });
  }
  for (const typeCode of [...raw.prefer, ...raw.not_targets]) {
    if (!known.has(typeCode))
      issues.push({ path: ['prefer'], message: `'${typeCode}' is not a type of ${name}` });
  }
  const types = flavor.types.flatMap((type): MatrixTable['types'] => {
    const entry = raw.types[type.code];
    const params = paramNamesOf(type.params_schema);
    if (entry === undefined) {
      issues.push({
        path: ['types', type.code],
        message: 'missing: every type needs a hub place or {none: reason}',
      });
      return [];
    }
    if (typeof entry !== 'string' && 'none' in entry)
      return [{ code: type.code, params, place: { none: entry.none } }];
    const decl = typeof entry === 'string' ? entry : entry.hub;
    const targetParams = typeof entry === 'string' ? undefined : entry.target_params;
    const unknown = Object.keys(targetParams ?? {}).filter((p) => !params.includes(p));
    if (unknown.length > 0) {
      issues.push({
        path: ['types', type.code, 'target_params'],
        message: `not parameters of the type: ${unknown.join(', ')}`,
      });
      return [];
    }
    try {
      const hub = resolveHubDecl(parseHubDecl(decl), type.params_schema);
      return [{ code: type.code, params, place: { hub, decl, ...(targetParams ? { targetParams } : {}) } }];
    } catch (err) {
      issues.push({ path: ['types', type.code], message: (err as Error).message });
      return [];
    }
  });
  if (issues.length > 0) throw new SeedFileError(source, issues);
  return { flavor: name, prefer: raw.prefer, notTargets: raw.not_targets, types };
}

export async function loadMatrixTables(path: string, flavors: readonly SeedFile[]): Promise<MatrixTable[]> {
  return parseMatrixTables(await readFile(path, 'utf8'), flavors, path);
}
