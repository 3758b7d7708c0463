// seeds/cast-matrix/<flavor>.yaml: where each built-in type of one flavor sits on the hub (ADR 0043).
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { SeedFile, SeedIssue } from '../seed-file.js';
import { SeedFileError } from '../seed-file.js';
import { parseHubDecl, resolveHubDecl, type ResolvedHub } from './hub-decl.js';

const code = z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/);

const TableSchema = z.strictObject({
  flavor: code,
  /** Among equally good targets in this flavor, these types first (in this order). */
  prefer: z.array(code).max(1000).default([]),
  /** Types never chosen as a cast target (serials, system identifiers): still sources. */
  not_targets: z.array(code).max(1000).default([]),
  /** Every type of the flavor: its hub declaration, or `{none: reason}` when it has no portable meaning. */
  types: z.record(code, z.union([z.string().max(200), z.strictObject({ none: z.string().min(1).max(500) })])),
});

/** A flavor type on the hub, or the reason it has none. */
export type HubPlace = { hub: ResolvedHub; decl: string } | { none: string };

/** A validated table: every type of the flavor placed (in the flavor file's order). */
export interface MatrixTable {
  flavor: string;
  prefer: string[];
  notTargets: string[];
  types: Array<{ code: string; place: HubPlace }>;
}

/**
 * Parses a table and checks it against its flavor's seed file: every type placed exactly once, no
 * unknown type, each declaration valid for the type's params.
 *
 * @throws SeedFileError listing every problem.
 */
export function parseMatrixTable(
  text: string,
  flavors: readonly SeedFile[],
  source = '<cast matrix>',
): MatrixTable {
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
  const flavor = flavors.find((f) => f.flavor.code === raw.flavor);
  if (flavor === undefined) {
    throw new SeedFileError(source, [
      { path: ['flavor'], message: `no seed file for flavor '${raw.flavor}'` },
    ]);
  }
  const issues: SeedIssue[] = [];
  const known = new Set(flavor.types.map((t) => t.code));
  for (const typeCode of Object.keys(raw.types)) {
    if (!known.has(typeCode))
      issues.push({ path: ['types', typeCode], message: `not a type of ${raw.flavor}` });
  }
  for (const typeCode of [...raw.prefer, ...raw.not_targets]) {
    if (!known.has(typeCode))
      issues.push({ path: ['prefer'], message: `'${typeCode}' is not a type of ${raw.flavor}` });
  }
  const types = flavor.types.flatMap((type): MatrixTable['types'] => {
    const entry = raw.types[type.code];
    if (entry === undefined) {
      issues.push({
        path: ['types', type.code],
        message: 'missing: every type needs a hub place or {none: reason}',
      });
      return [];
    }
    if (typeof entry !== 'string') return [{ code: type.code, place: { none: entry.none } }];
    try {
      return [
        {
          code: type.code,
          place: { hub: resolveHubDecl(parseHubDecl(entry), type.params_schema), decl: entry },
        },
      ];
    } catch (err) {
      issues.push({ path: ['types', type.code], message: (err as Error).message });
      return [];
    }
  });
  if (issues.length > 0) throw new SeedFileError(source, issues);
  return { flavor: raw.flavor, prefer: raw.prefer, notTargets: raw.not_targets, types };
}

export async function loadMatrixTable(path: string, flavors: readonly SeedFile[]): Promise<MatrixTable> {
  return parseMatrixTable(await readFile(path, 'utf8'), flavors, path);
}
