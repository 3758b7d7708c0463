import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The ids DataCoolie sees of registry rows (ADR 0050): DataCoolie's routes name connections and
 * dataflows by `datacoolie_id`, and still by their registry id when no `datacoolie_id` matches.
 */
@Injectable()
export class DatacoolieIdsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The `datacoolie_id` of the workspace's active profile whose registry id is `ref`, or undefined. */
  connectionOf(workspaceId: string, ref: string): Promise<string | undefined> {
    return this.datacoolieIdOf('connection_profiles', workspaceId, ref);
  }

  /** The `datacoolie_id` of the workspace's active dataflow whose registry id is `ref`, or undefined. */
  dataflowOf(workspaceId: string, ref: string): Promise<string | undefined> {
    return this.datacoolieIdOf('dataflows', workspaceId, ref);
  }

  private async datacoolieIdOf(
    table: 'connection_profiles' | 'dataflows',
    workspaceId: string,
    ref: string,
  ): Promise<string | undefined> {
    if (!UUID.test(ref)) return undefined;
    const rows: { datacoolie_id: string }[] = await this.dataSource.query(
      `SELECT datacoolie_id FROM ${table} WHERE id = $1 AND workspace_id = $2 AND deleted_at IS NULL`,
      [ref, workspaceId],
    );
    return rows[0]?.datacoolie_id;
  }
}
