import { RefreshTokenEntity } from '../modules/auth/refresh-token.entity.js';
import { CredentialRefEntity } from '../modules/credential-refs/credential-ref.entity.js';
import { SystemFlavorEntity } from '../modules/system-flavors/system-flavor.entity.js';
import { SystemKindEntity } from '../modules/system-kinds/system-kind.entity.js';
import { SystemEntity } from '../modules/systems/system.entity.js';
import { UserEntity } from '../modules/users/user.entity.js';

/** Every TypeORM entity of the registry. */
export const ENTITIES = [
  UserEntity,
  RefreshTokenEntity,
  SystemKindEntity,
  SystemFlavorEntity,
  CredentialRefEntity,
  SystemEntity,
];
