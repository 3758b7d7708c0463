import type { ConnectionProfile, ProfileFormatSchema, ProfileSecret } from '@aide/schemas';
import type { z } from 'zod';
import { softDeleteFields } from '../../common/crud/audit-mapper.js';
import type { ConnectionProfileEntity } from './connection-profile.entity.js';

export function toConnectionProfile(e: ConnectionProfileEntity, secrets: ProfileSecret[]): ConnectionProfile {
  return {
    ...softDeleteFields(e),
    workspace_id: e.workspace_id,
    system_id: e.system_id,
    name: e.name,
    description: e.description,
    connection_type: e.connection_type as ConnectionProfile['connection_type'],
    format: e.format as z.infer<typeof ProfileFormatSchema>,
    catalog: e.catalog,
    database: e.database,
    configure: e.configure,
    use_schema_hint: e.use_schema_hint,
    is_active: e.is_active,
    secrets,
  };
}
