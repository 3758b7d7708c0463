import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The dataset a translation renders: how the output names it, and the flavor it is typed in. */
export interface TranslatedDataset {
  /** The table (rdbms, hive) or the object name. */
  name: string;
  /** The schema (rdbms) or database (hive); null for other kinds. */
  namespace: string | null;
  flavor_id: string;
  flavor_code: string;
  partition_columns: string[];
}

/** The one read of translations that no other module offers (ADR 0026): the dataset's naming, one statement. */
@Injectable()
export class TranslationsRepository {
  async dataset(datasetId: string, m: EntityManager): Promise<TranslatedDataset | undefined> {
    const rows: TranslatedDataset[] = await m.query(
      `SELECT COALESCE(r.table_name, h.table_name, d.object_name) AS name,
              COALESCE(r.schema_name, h.db_name) AS namespace,
              f.id AS flavor_id, f.code AS flavor_code,
              COALESCE(h.partition_cols, st.partition_by, '{}') AS partition_columns
       FROM datasets d JOIN systems s ON s.id = d.system_id
       JOIN system_flavors f ON f.id = COALESCE(d.flavor_id, s.flavor_id)
       LEFT JOIN dataset_rdbms r ON r.id = d.id
       LEFT JOIN dataset_hive h ON h.id = d.id
       LEFT JOIN dataset_storage st ON st.id = d.id
       WHERE d.id = $1 AND d.deleted_at IS NULL`,
      [datasetId],
    );
    return rows[0];
  }
}
