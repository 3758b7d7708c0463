import type { SchemaVersion, SchemaVersionDiff } from '@aide/schemas';

/** Compares two versions column by column, by name. */
export function diffVersions(from: SchemaVersion, to: SchemaVersion): SchemaVersionDiff {
  const before = new Map(from.columns.map((c) => [c.name, c]));
  const after = new Map(to.columns.map((c) => [c.name, c]));
  const brief = (c: SchemaVersion['columns'][number]) => ({
    name: c.name,
    position: c.position,
    nullable: c.nullable,
    rendered_type: c.rendered_type,
  });
  const diff: SchemaVersionDiff = {
    dataset_id: to.dataset_id,
    from_version: from.version_num,
    to_version: to.version_num,
    added: to.columns.filter((c) => !before.has(c.name)).map(brief),
    removed: from.columns.filter((c) => !after.has(c.name)).map(brief),
    type_changed: [],
    nullability_changed: [],
    reordered: [],
  };
  // Reordering is judged on the relative order of the columns both versions have.
  const keptBefore = from.columns.filter((c) => after.has(c.name)).map((c) => c.name);
  const keptAfter = to.columns.filter((c) => before.has(c.name)).map((c) => c.name);
  for (const [name, newer] of after) {
    const older = before.get(name);
    if (!older) continue;
    if (older.rendered_type !== newer.rendered_type) {
      diff.type_changed.push({ name, from_type: older.rendered_type, to_type: newer.rendered_type });
    }
    if (older.nullable !== newer.nullable) {
      diff.nullability_changed.push({ name, from_nullable: older.nullable, to_nullable: newer.nullable });
    }
    if (keptBefore.indexOf(name) !== keptAfter.indexOf(name)) {
      diff.reordered.push({ name, from_position: older.position, to_position: newer.position });
    }
  }
  return diff;
}
