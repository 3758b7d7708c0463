import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { countReferencing } from '../../common/crud/dependants.js';
import { CrudRepository } from '../../common/crud/crud-repository.js';
import { registerConstraintCodes } from '../../common/errors/db-error.js';
import { CredentialRefEntity } from './credential-ref.entity.js';

registerConstraintCodes({
  uq_credential_refs_provider_path_active: 'CREDENTIAL_REF_ALREADY_EXISTS',
  fk_systems_credential_ref: 'CREDENTIAL_REF_NOT_FOUND',
});

@Injectable()
export class CredentialRefsRepository {
  readonly crud: CrudRepository<CredentialRefEntity>;

  constructor(dataSource: DataSource) {
    this.crud = new CrudRepository({
      dataSource,
      entity: CredentialRefEntity,
      notFound: 'CREDENTIAL_REF_NOT_FOUND',
      softDelete: true,
    });
  }

  /** Active systems using the reference (the delete guard). */
  countActiveSystems(refId: string, manager: EntityManager): Promise<number> {
    return countReferencing(manager, 'systems', 'credential_ref_id', refId, true);
  }

  /** Active connection profiles whose secrets name the reference (exported as `secrets_ref`). */
  async countActiveConnectionProfiles(refId: string, manager: EntityManager): Promise<number> {
    const rows: { n: number }[] = await manager.query(
      `SELECT count(DISTINCT p.id)::int AS n FROM connection_profile_secrets ps
       JOIN connection_profiles p ON p.id = ps.profile_id
       WHERE ps.credential_ref_id = $1 AND p.deleted_at IS NULL`,
      [refId],
    );
    return rows[0]?.n ?? 0;
  }
}
