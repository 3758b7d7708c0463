// Schema-hint groups (reference §1.8): hints are grouped by the source table key
// (connection_id, schema_name, table_name); keys are normalized, groups that differ only by case are
// merged, columns are unique case-insensitively, and lookups follow one selection rule.
import { casefold, pyTuple, pyTypeName, MetadataError, type SchemaHint } from '@aide/schemas/datacoolie';

/** The hints of one source table. `schema_name` null is the unqualified group. */
export interface SchemaHintGroup {
  connection_id: string;
  schema_name: string | null;
  table_name: string;
  hints: SchemaHint[];
}

export interface SchemaHintKey {
  connection_id: string;
  schema_name: string | null;
  table_name: string;
}

/** Normalized groups by their case-folded key; the output of `normalizeSchemaHintGroups`. */
export type SchemaHintGroups = ReadonlyMap<string, SchemaHintGroup>;

export function normalizeSchemaHintKey(
  connectionId: unknown,
  tableName: unknown,
  schemaName: unknown,
): SchemaHintKey {
  if (typeof connectionId !== 'string' || connectionId.trim() === '') {
    throw new MetadataError('connection_id must be a non-empty string');
  }
  let schema: string | null = null;
  if (schemaName !== null && schemaName !== undefined) {
    if (typeof schemaName !== 'string') {
      throw new MetadataError(`schema_name must be a string or null, got ${pyTypeName(schemaName)}`);
    }
    schema = schemaName.trim() === '' ? null : schemaName.trim();
  }
  if (typeof tableName !== 'string' || tableName.trim() === '') {
    throw new MetadataError('table_name must be a non-empty string');
  }
  return { connection_id: connectionId.trim(), schema_name: schema, table_name: tableName.trim() };
}

/** The identity of a key: exact connection id, case-folded schema and table. */
export function schemaHintKeyId(key: SchemaHintKey): string {
  return JSON.stringify([
    key.connection_id,
    key.schema_name === null ? null : casefold(key.schema_name),
    casefold(key.table_name),
  ]);
}

/** Stable sort by `ordinal_position`, nulls last. */
export function sortSchemaHints(hints: readonly SchemaHint[]): SchemaHint[] {
  return [...hints].sort((a, b) => {
    if (a.ordinal_position === b.ordinal_position) return 0;
    if (a.ordinal_position === null) return 1;
    if (b.ordinal_position === null) return -1;
    return a.ordinal_position - b.ordinal_position;
  });
}

function assertUniqueColumns(key: SchemaHintKey, hints: readonly SchemaHint[]): void {
  const seen = new Set<string>();
  for (const hint of hints) {
    const column = casefold(hint.column_name);
    if (seen.has(column)) {
      throw new MetadataError(
        `Duplicate schema hint column in metadata: ${pyTuple([key.connection_id, key.schema_name, key.table_name, hint.column_name])}`,
      );
    }
    seen.add(column);
  }
}

/** Normalizes keys, merges groups whose keys differ only by case, rejects duplicate columns, sorts. */
export function normalizeSchemaHintGroups(groups: Iterable<SchemaHintGroup>): Map<string, SchemaHintGroup> {
  const merged = new Map<string, SchemaHintGroup>();
  for (const group of groups) {
    const key = normalizeSchemaHintKey(group.connection_id, group.table_name, group.schema_name);
    const id = schemaHintKeyId(key);
    const existing = merged.get(id);
    if (existing) existing.hints.push(...group.hints);
    else merged.set(id, { ...key, hints: [...group.hints] });
  }
  for (const group of merged.values()) {
    assertUniqueColumns(group, group.hints);
    group.hints = sortSchemaHints(group.hints);
  }
  return merged;
}

/**
 * The selection rule of every lookup: exact connection id, case-insensitive table; a requested schema
 * must match case-insensitively (no fallback to the unqualified group); without a schema exactly one
 * candidate group must exist. Returns null when nothing matches.
 */
export function selectSchemaHints(
  groups: SchemaHintGroups,
  connectionId: string,
  tableName: string,
  schemaName: string | null = null,
): SchemaHint[] | null {
  const key = normalizeSchemaHintKey(connectionId, tableName, schemaName);
  if (key.schema_name !== null) {
    const group = groups.get(schemaHintKeyId(key));
    return group ? checkedHints(group) : null;
  }
  const table = casefold(key.table_name);
  const candidates = [...groups.values()].filter(
    (group) => group.connection_id === key.connection_id && casefold(group.table_name) === table,
  );
  if (candidates.length === 0) return null;
  if (candidates.length > 1) {
    const schemas = candidates.map((group) => group.schema_name ?? '<unqualified>').sort();
    throw new MetadataError(
      `Schema hint lookup is ambiguous for ${key.connection_id}.${key.table_name}; candidates: ${schemas.join(', ')}`,
    );
  }
  return checkedHints(candidates[0]!);
}

function checkedHints(group: SchemaHintGroup): SchemaHint[] {
  assertUniqueColumns(group, group.hints);
  return sortSchemaHints(group.hints);
}

/** Groups flattened hint rows (an API `/schema-hints` shape) by their key, in first-seen order. */
export function groupSchemaHintRows<T extends { hint: SchemaHint; key: SchemaHintKey }>(
  rows: Iterable<T>,
): SchemaHintGroup[] {
  const groups = new Map<string, SchemaHintGroup>();
  for (const { hint, key } of rows) {
    const id = JSON.stringify([key.connection_id, key.schema_name, key.table_name]);
    const group = groups.get(id);
    if (group) group.hints.push(hint);
    else groups.set(id, { ...key, hints: [hint] });
  }
  return [...groups.values()];
}
