/// <reference types="node" />
// A schema version's structural fingerprint (ADR 0032): the SHA-256 of a canonical text of what a
// crawler compares — per column its name, nullability, type tree, native type, default, comment,
// identity, generation and collation, in column order; per version its kind, comment, view definition,
// keys, indexes and checks (the keyed lists in a canonical order, as the crawler's diff matches them
// by key). PII tags and rendered type texts are not part of it: a crawl does not compare them. The
// backend stores it with each version's read shape; the crawler computes it of what it inspected and
// reads in full only the versions whose fingerprint differs. A Node-only entry point
// (`@aide/schemas/fingerprint`): it hashes with node:crypto.
import { createHash } from 'node:crypto';
import type { SchemaVersion } from './entities/schema-version.js';
import { typeSpecOfTree } from './version-changes/comparable.js';

export { typeSpecOfTree };

/** Bump when the canonical text changes: fingerprints of another version never match. */
export const FINGERPRINT_FORMAT = 1;

/** A type tree in a crawler's terms: code, declared scalar params, children by slot. */
export interface FingerprintType {
  data_type: string;
  params?: Record<string, unknown> | null | undefined;
  children?: { slot: string; type: FingerprintType }[] | undefined;
}

/** A version's structure as both sides can give it (the crawler's TableVersion and a read shape fit). */
export interface FingerprintInput {
  table_kind: string | null;
  table_comment: string | null;
  view_definition: string | null;
  columns: readonly {
    name: string;
    nullable: boolean;
    type: FingerprintType | null;
    native_type: string | null;
    default: string | null;
    comment: string | null;
    identity: string | null;
    generated: string | null;
    collation: string | null;
  }[];
  primary_key: { name: string | null; columns: readonly string[] } | null;
  unique_constraints: readonly { name: string | null; columns: readonly string[] }[];
  /** The referenced table: a registered dataset by id when there is one, else by `schema.table`. */
  foreign_keys: readonly {
    name: string | null;
    columns: readonly string[];
    referenced: {
      dataset_id?: string | null | undefined;
      schema?: string | null | undefined;
      table?: string | null | undefined;
      columns: readonly string[];
    };
    on_update: string;
    on_delete: string;
  }[];
  indexes: readonly {
    name: string;
    unique: boolean;
    method: string | null;
    columns: readonly string[] | null;
    expression: string | null;
    include: readonly string[];
    predicate: string | null;
    definition: string | null;
  }[];
  check_constraints: readonly { name: string | null; expression: string }[];
}

const SCALAR = new Set(['string', 'number', 'boolean']);

/** Type trees compare by code, params (key order ignored) and children by slot (order ignored). */
function canonicalType(type: FingerprintType | null): unknown {
  if (type === null) return null;
  // The common leaf: no params, no children (no arrays to sort).
  if (!type.params && !type.children?.length) return [type.data_type, [], []];
  const params = Object.entries(type.params ?? {})
    .filter(([, value]) => SCALAR.has(typeof value))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const children = [...(type.children ?? [])]
    .sort((a, b) => (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : 0))
    .map((c) => [c.slot, canonicalType(c.type)]);
  return [type.data_type, params, children];
}

/** A keyed list in an order independent of how either side listed it. */
function canonicalList(items: readonly unknown[]): string[] {
  return items.length === 0 ? [] : items.map((item) => JSON.stringify(item)).sort();
}

/** The canonical text of a version's structure: positional arrays, so no key order can differ. */
export function canonicalStructure(v: FingerprintInput): string {
  return JSON.stringify([
    FINGERPRINT_FORMAT,
    v.table_kind ?? 'table',
    v.table_comment,
    v.view_definition,
    v.columns.map((c) => [
      c.name,
      c.nullable,
      canonicalType(c.type),
      c.native_type ?? '',
      c.default,
      c.comment,
      c.identity,
      c.generated,
      c.collation,
    ]),
    v.primary_key === null ? null : [v.primary_key.name, v.primary_key.columns],
    canonicalList(v.unique_constraints.map((u) => [u.name, u.columns])),
    canonicalList(
      v.foreign_keys.map((fk) => [
        fk.name,
        fk.columns,
        fk.referenced.dataset_id
          ? ['id', fk.referenced.dataset_id]
          : ['name', fk.referenced.schema ?? '', fk.referenced.table ?? ''],
        fk.referenced.columns,
        fk.on_update,
        fk.on_delete,
      ]),
    ),
    canonicalList(
      v.indexes.map((i) => [
        i.name,
        i.unique,
        i.method,
        i.columns,
        i.expression,
        i.include,
        i.predicate,
        i.definition,
      ]),
    ),
    canonicalList(v.check_constraints.map((c) => [c.name, c.expression])),
  ]);
}

/** The fingerprint of a version's structure: hex SHA-256 of its canonical text. */
export function structureFingerprint(v: FingerprintInput): string {
  return createHash('sha256').update(canonicalStructure(v)).digest('hex');
}

/** The fingerprint of a version as the registry reads it (its read shape), columns by position. */
export function schemaVersionFingerprint(version: SchemaVersion): string {
  return structureFingerprint({
    ...version,
    columns: [...version.columns]
      .sort((a, b) => a.position - b.position)
      .map((c) => ({ ...c, type: c.type === null ? null : typeSpecOfTree(c.type) })),
  });
}
