import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape, softDeleteShape } from '../common/audit.js';
import { jsonObject, longText, text } from '../common/text.js';
import { CONNECTION_TYPES, FORMATS } from '../datacoolie/constants.js';
import { defineResource } from '../resource.js';

/** DataCoolie connection types a profile may have: streaming has no format yet, so none is exportable. */
export const PROFILE_CONNECTION_TYPES = CONNECTION_TYPES.filter((t) => t !== 'streaming') as [
  'lakehouse',
  'file',
  'database',
  'api',
  'function',
];
export const ProfileConnectionTypeSchema = z.enum(PROFILE_CONNECTION_TYPES);
export const ProfileFormatSchema = z.enum(FORMATS);

/**
 * `configure` keys that hold secrets in DataCoolie connections. A profile never stores their values:
 * they come from credential references (`secrets`), exported as the secret's name plus `secrets_ref`.
 */
export const SECRET_CONFIGURE_KEYS = [
  'password',
  'token',
  'client_secret',
  'secret',
  'api_key',
  'account_key',
  'sas_token',
  'access_key',
  'secret_key',
  'private_key',
  'passphrase',
] as const;

/** One configure field filled, at export, with the name of a secret held by a credential reference. */
export const ProfileSecretSchema = z
  .strictObject({
    configure_field: text(255),
    credential_ref_id: z.uuid(),
  })
  .meta({ id: 'ConnectionProfileSecret' });
export type ProfileSecret = z.infer<typeof ProfileSecretSchema>;

const secrets = z.array(ProfileSecretSchema).max(50);

/**
 * A DataCoolie connection over a registry system: one endpoint with one format (and for a database
 * server, one database). Its id is the exported `connection_id`.
 */
export const ConnectionProfileSchema = z
  .object({
    ...auditShape,
    ...softDeleteShape,
    workspace_id: z.uuid(),
    system_id: z.uuid(),
    datacoolie_id: z
      .string()
      .describe(
        "The connection_id DataCoolie sees, unique in the workspace: the profile's id unless a document " +
          'gave another (any string, or a name-derived id another workspace already uses)',
      ),
    name: z.string(),
    description: z.string().nullable(),
    connection_type: ProfileConnectionTypeSchema,
    format: ProfileFormatSchema,
    catalog: z.string().nullable(),
    database: z.string().nullable(),
    configure: z.record(z.string(), z.unknown()),
    use_schema_hint: z.boolean(),
    is_active: z.boolean(),
    as_written: z
      .boolean()
      .describe(
        'True for a connection imported from a DataCoolie document: it is served exactly as written ' +
          "(configure's keys in their order, secret fields in their places, nothing derived from the " +
          'system) with only the hints the document declared; false: the configure is derived from the ' +
          'system and overridden by `configure`, and hints come from schema versions',
      ),
    secrets: z.array(ProfileSecretSchema),
  })
  .meta({ id: 'ConnectionProfile' });
export type ConnectionProfile = z.infer<typeof ConnectionProfileSchema>;

export const CreateConnectionProfileSchema = z
  .strictObject({
    id: z.uuid().optional().describe('The registry id to keep; generated when absent'),
    workspace_id: z.uuid(),
    system_id: z.uuid(),
    datacoolie_id: text(255)
      .optional()
      .describe('The connection_id DataCoolie sees (unique in the workspace); the profile id when absent'),
    name: text(255),
    description: longText().nullable().optional(),
    connection_type: ProfileConnectionTypeSchema,
    format: ProfileFormatSchema,
    catalog: text(255).nullable().optional(),
    database: text(255).nullable().optional(),
    configure: jsonObject.optional(),
    use_schema_hint: z.boolean().optional(),
    is_active: z.boolean().optional(),
    secrets: secrets.optional(),
    as_written: z.boolean().optional().describe('Default false (see ConnectionProfile.as_written)'),
    ...noteShape,
  })
  .meta({ id: 'CreateConnectionProfile' });
export type CreateConnectionProfile = z.input<typeof CreateConnectionProfileSchema>;

/** The workspace and the system of a profile never change: its connection id means one endpoint. */
export const UpdateConnectionProfileSchema = CreateConnectionProfileSchema.omit({
  id: true,
  workspace_id: true,
  system_id: true,
  datacoolie_id: true,
})
  .partial()
  .extend(rowVersionShape)
  .meta({ id: 'UpdateConnectionProfile' });
export type UpdateConnectionProfile = z.input<typeof UpdateConnectionProfileSchema>;

export const connectionProfileResource = defineResource({
  path: 'connection-profiles',
  tag: 'Connection profiles',
  name: 'ConnectionProfile',
  read: ConnectionProfileSchema,
  create: CreateConnectionProfileSchema,
  update: UpdateConnectionProfileSchema,
  list: {
    filters: {
      workspace_id: { type: 'uuid', ops: ['eq', 'in'] },
      system_id: { type: 'uuid', ops: ['eq', 'in'] },
      datacoolie_id: { type: 'string', ops: ['eq', 'in'] },
      name: { type: 'string', ops: ['eq', 'like', 'in'] },
      connection_type: { type: 'string', ops: ['eq', 'in'], values: PROFILE_CONNECTION_TYPES },
      format: { type: 'string', ops: ['eq', 'in'], values: FORMATS },
      is_active: { type: 'boolean', ops: ['eq'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['name', 'connection_type', 'format', 'created_at', 'updated_at'],
    defaultSort: 'name',
    softDelete: true,
  },
  notFound: 'CONNECTION_PROFILE_NOT_FOUND',
  writeRole: 'user',
  keys: 'workspace',
  softDelete: true,
  batch: false,
  errors: [
    'CONNECTION_PROFILE_ALREADY_EXISTS',
    'FORBIDDEN',
    'WORKSPACE_NOT_FOUND',
    'SYSTEM_NOT_FOUND',
    'CREDENTIAL_REF_NOT_FOUND',
    'CONNECTION_PROFILE_INVALID',
    'CONNECTION_PROFILE_SYSTEM_MISMATCH',
    'CONNECTION_PROFILE_SECRET_INLINE',
    'DATAFLOW_INVALID',
  ],
});
