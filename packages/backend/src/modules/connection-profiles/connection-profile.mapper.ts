import type { ConnectionProfile, ProfileSecret } from '@aide/schemas';
import { withSoftDelete } from '../../common/crud/audit-mapper.js';
import type { ConnectionProfileEntity } from './connection-profile.entity.js';

export function toConnectionProfile(e: ConnectionProfileEntity, secrets: ProfileSecret[]): ConnectionProfile {
  return withSoftDelete<ConnectionProfile>(e, {
    workspace_id: e.workspace_id,
    system_id: e.system_id,
    datacoolie_id: e.datacoolie_id,
    name: e.name,
    description: e.description,
    connection_type: e.connection_type,
    format: e.format,
    catalog: e.catalog,
    database: e.database,
    configure: e.configure,
    use_schema_hint: e.use_schema_hint,
    is_active: e.is_active,
    as_written: e.as_written,
    secrets,
  });
}
