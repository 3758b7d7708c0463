import type { PutSchemaHintOverrides, SchemaHintOverride, SchemaHintOverrides } from '@aide/schemas';
import { casefold } from '@aide/schemas/datacoolie';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { Transactions } from '../../database/transactions.js';
import { DatacoolieScopeRepository } from './datacoolie-scope.repository.js';
import { WorkspaceSnapshotService } from './workspace-snapshot.service.js';

registerConstraintCodes({
  fk_schema_hint_overrides_workspace: 'WORKSPACE_NOT_FOUND',
  fk_schema_hint_overrides_dataset: 'DATASET_NOT_FOUND',
});

/**
 * A dataset's schema-hint overrides in a workspace (ADR 0030): `format`, `default_value` and
 * `is_active` by column, applied to the hints derived from the dataset's schema version. A PUT
 * replaces the whole set in one statement pair; the table's trigger marks the snapshot changed.
 */
@Injectable()
export class SchemaHintOverridesService {
  constructor(
    private readonly snapshots: WorkspaceSnapshotService,
    private readonly scope: DatacoolieScopeRepository,
    private readonly tx: Transactions,
  ) {}

  async get(workspaceRef: string, datasetId: string, user: AuthUser): Promise<SchemaHintOverrides> {
    const workspace = await this.snapshots.workspace(workspaceRef, user);
    return this.tx.run(async (m) => {
      await this.activeDataset(datasetId, m);
      return {
        workspace_id: workspace.id,
        dataset_id: datasetId,
        overrides: await this.read(workspace.id, datasetId, m),
      };
    });
  }

  async put(
    workspaceRef: string,
    datasetId: string,
    body: PutSchemaHintOverrides,
    user: AuthUser,
  ): Promise<SchemaHintOverrides> {
    const workspace = await this.snapshots.workspace(workspaceRef, user);
    const folded = body.overrides.map((o) => casefold(o.column_name));
    if (new Set(folded).size !== folded.length) {
      throw new AppError('VALIDATION_ERROR', 'Column names must be unique (case-insensitively).', {
        field: 'overrides',
      });
    }
    return this.tx.run(async (m) => {
      await this.activeDataset(datasetId, m, true);
      // Writers of one set queue here (each replaces it whole: delete, then insert).
      await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
        `schema-hint-overrides:${workspace.id}:${datasetId}`,
      ]);
      const current = await this.read(workspace.id, datasetId, m);
      const wanted: SchemaHintOverride[] = body.overrides
        .map((o) => ({
          column_name: o.column_name,
          format: o.format ?? null,
          default_value: o.default_value ?? null,
          is_active: o.is_active ?? true,
        }))
        .sort((a, b) => (a.column_name < b.column_name ? -1 : a.column_name > b.column_name ? 1 : 0));
      // An unchanged set writes nothing, so the workspace snapshot stays current (a re-import is free).
      if (JSON.stringify(current) === JSON.stringify(wanted)) {
        return { workspace_id: workspace.id, dataset_id: datasetId, overrides: current };
      }
      await m.query(`DELETE FROM schema_hint_overrides WHERE workspace_id = $1 AND dataset_id = $2`, [
        workspace.id,
        datasetId,
      ]);
      if (wanted.length > 0) {
        await m.query(
          `INSERT INTO schema_hint_overrides (workspace_id, dataset_id, column_name, format, default_value, is_active, updated_by)
           SELECT $1, $2, o.column_name, o.format, o.default_value, o.is_active, $4
           FROM jsonb_to_recordset($3::jsonb) AS o(column_name text, format text, default_value text, is_active boolean)`,
          [workspace.id, datasetId, JSON.stringify(wanted), user.id],
        );
      }
      return { workspace_id: workspace.id, dataset_id: datasetId, overrides: wanted };
    });
  }

  private async activeDataset(datasetId: string, m: EntityManager, lock = false): Promise<void> {
    const found = await this.scope.datasetsById([datasetId], m, lock);
    if (!found.has(datasetId)) throw new AppError('DATASET_NOT_FOUND', undefined, { dataset_id: datasetId });
  }

  private read(workspaceId: string, datasetId: string, m: EntityManager): Promise<SchemaHintOverride[]> {
    return m.query(
      `SELECT column_name, format, default_value, is_active FROM schema_hint_overrides
       WHERE workspace_id = $1 AND dataset_id = $2 ORDER BY column_name COLLATE "C"`,
      [workspaceId, datasetId],
    );
  }
}
