import type { Dataset } from '@aide/schemas';
import { softDeleteFields } from '../../common/crud/audit-mapper.js';
import type { DatasetEntity, DatasetRow } from './dataset.entity.js';

/** The read shape of one dataset kind. */
type DatasetOf<K extends Dataset['kind']> = Extract<Dataset, { kind: K }>;

/** The parent table's own columns, the same for every kind. */
function parentFields(e: DatasetEntity) {
  return {
    system_id: e.system_id,
    flavor_id: e.flavor_id,
    object_name: e.object_name,
    layer: e.layer,
    pattern_code: e.pattern_code,
    is_active: e.is_active,
    extra: e.extra,
  };
}

type Parent = ReturnType<typeof softDeleteFields> & ReturnType<typeof parentFields>;

/**
 * One kind's read shape `R`: the audit block, the parent's columns (each a key of R, or `R` does not
 * satisfy the constraint), then `kindFields`, an object literal holding exactly R's other keys.
 */
function withParent<R extends Parent>(
  e: DatasetEntity,
  kindFields: Omit<R, keyof Parent>,
): Parent & Omit<R, keyof Parent> {
  return Object.assign(softDeleteFields(e), parentFields(e), kindFields);
}

/**
 * Parent columns plus the kind's attributes, flat, as the wire's discriminated union: one object
 * literal per kind, each checked against its member of the zod-inferred `Dataset` (no key missing, none
 * extra) — never cast.
 */
export function toDataset(e: DatasetRow): Dataset {
  switch (e.kind) {
    case 'rdbms': {
      const d = e.details;
      return withParent<DatasetOf<'rdbms'>>(e, {
        kind: e.kind,
        catalog_name: d.catalog_name,
        schema_name: d.schema_name,
        table_name: d.table_name,
        is_view: d.is_view,
        distribution: d.distribution,
        pk_columns: d.pk_columns,
        uq_constraints: d.uq_constraints,
      });
    }
    case 'kafka': {
      const d = e.details;
      return withParent<DatasetOf<'kafka'>>(e, {
        kind: e.kind,
        topic: d.topic,
        format: d.format,
        partitions: d.partitions,
        // bigint comes back from pg as a string.
        retention_ms: d.retention_ms === null ? null : Number(d.retention_ms),
        key_columns: d.key_columns,
      });
    }
    case 'storage': {
      const d = e.details;
      return withParent<DatasetOf<'storage'>>(e, {
        kind: e.kind,
        path: d.path,
        file_format: d.file_format,
        compression: d.compression,
        partition_by: d.partition_by,
      });
    }
    case 'sftp': {
      const d = e.details;
      return withParent<DatasetOf<'sftp'>>(e, {
        kind: e.kind,
        path: d.path,
        file_format: d.file_format,
        compression: d.compression,
        archive: d.archive,
      });
    }
    case 'hive': {
      const d = e.details;
      return withParent<DatasetOf<'hive'>>(e, {
        kind: e.kind,
        catalog_uri: d.catalog_uri,
        db_name: d.db_name,
        table_name: d.table_name,
        is_external: d.is_external,
        file_format: d.file_format,
        location: d.location,
        partition_cols: d.partition_cols,
        serde: d.serde,
        tblproperties: d.tblproperties,
        bkey_columns: d.bkey_columns,
      });
    }
  }
}
