// Registry-side edits for crawl and apply tests: a version published through the API, as a person
// editing the registry would, so that a report's base is no longer current.
import { typeSpecOfTree } from '@aide/schemas/fingerprint';
import type { AideClient } from '@aide/sdk';

/**
 * Publishes a copy of the current version of `objectName` (system `systemCode`) with its column
 * `index` edited: its comment set to `comment`, its nullability flipped when `flipNullable`.
 */
export async function publishEditedColumn(
  client: AideClient,
  systemCode: string,
  objectName: string,
  edit: { index: number; comment: string; flipNullable?: boolean },
) {
  const system = (await client.systems.list({ code: systemCode, size: 1 })).items[0];
  const dataset = (await client.datasets.list({ system_id: system?.id, object_name: objectName })).items[0];
  if (dataset === undefined) throw new Error(`${objectName} is not registered`);
  const current = (await client.datasets.schemaVersions(dataset.id))[0];
  const version = await client.datasets.schemaVersion(dataset.id, current?.version_num ?? 1);
  const edited = (i: number) => i === edit.index;
  return client.datasets.publishSchemaVersion(dataset.id, {
    columns: version.columns.map((c, i) => ({
      name: c.name,
      nullable: edited(i) && edit.flipNullable === true ? !c.nullable : c.nullable,
      type: c.type === null ? null : typeSpecOfTree(c.type),
      native_type: c.native_type,
      default: c.default,
      comment: edited(i) ? edit.comment : c.comment,
      identity: c.identity,
      generated: c.generated,
      collation: c.collation,
    })),
    table_kind: version.table_kind,
    table_comment: version.table_comment,
    view_definition: version.view_definition,
    primary_key: version.primary_key,
    unique_constraints: version.unique_constraints,
    foreign_keys: version.foreign_keys,
    indexes: version.indexes,
    check_constraints: version.check_constraints,
  });
}
