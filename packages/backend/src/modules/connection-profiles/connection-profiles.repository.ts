import type { ProfileSecret } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { ConnectionProfileEntity, ConnectionProfileSecretEntity } from './connection-profile.entity.js';

registerConstraintCodes({
  uq_connection_profiles_workspace_name_active: 'CONNECTION_PROFILE_ALREADY_EXISTS',
  uq_connection_profiles_workspace_datacoolie_id: 'CONNECTION_PROFILE_ALREADY_EXISTS',
  fk_connection_profile_secrets_profile: 'CONNECTION_PROFILE_NOT_FOUND',
  fk_connection_profiles_workspace: 'WORKSPACE_NOT_FOUND',
  fk_connection_profiles_system: 'SYSTEM_NOT_FOUND',
  fk_connection_profile_secrets_credential_ref: 'CREDENTIAL_REF_NOT_FOUND',
});

@Injectable()
export class ConnectionProfilesRepository {
  readonly crud: CrudRepository<ConnectionProfileEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: ConnectionProfileEntity,
      notFound: 'CONNECTION_PROFILE_NOT_FOUND',
      softDelete: true,
    });
  }

  /** The secret references of profiles, by profile id, in their order. */
  async secretsOf(
    profileIds: readonly string[],
    manager?: EntityManager,
  ): Promise<Map<string, ProfileSecret[]>> {
    const byProfile = new Map<string, ProfileSecret[]>(profileIds.map((id) => [id, []]));
    if (profileIds.length === 0) return byProfile;
    const rows = await (manager ?? this.crud.repo().manager)
      .getRepository(ConnectionProfileSecretEntity)
      .createQueryBuilder('s')
      .where('s.profile_id = ANY(:ids::uuid[])', { ids: [...profileIds] })
      .orderBy('s.profile_id')
      .addOrderBy('s.position')
      .getMany();
    for (const row of rows) {
      byProfile
        .get(row.profile_id)
        ?.push({ configure_field: row.configure_field, credential_ref_id: row.credential_ref_id });
    }
    return byProfile;
  }

  /** Replaces a profile's secret references (in the caller's transaction). */
  async replaceSecrets(
    profileId: string,
    secrets: readonly ProfileSecret[],
    manager: EntityManager,
  ): Promise<void> {
    const repo = manager.getRepository(ConnectionProfileSecretEntity);
    await repo.delete({ profile_id: profileId });
    if (secrets.length === 0) return;
    await repo.insert(secrets.map((s, position) => ({ profile_id: profileId, ...s, position })));
  }

  /** Active dataflows reading or writing through a profile. */
  async dependentDataflowIds(profileId: string, manager: EntityManager): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `SELECT id FROM dataflows
       WHERE (source_connection_id = $1 OR destination_connection_id = $1) AND deleted_at IS NULL ORDER BY id`,
      [profileId],
    );
    return rows.map((r) => r.id);
  }
}
