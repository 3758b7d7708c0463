import { z } from 'zod';
import { auditShape, noteShape } from '../common/audit.js';
import { text } from '../common/text.js';
import { defineResource } from '../resource.js';

/**
 * What a key may reach outside its workspaces, granted when it is created (ADR 0020, amendment of issue
 * 22): `catalogue:read` the shared catalogue's reads (systems, datasets, schema versions, lineage,
 * search, reference data), `catalogue:write` its creates and updates (never deletes, restores or
 * reference-data administration). Without a scope a key reaches its workspaces only.
 */
export const API_KEY_SCOPES = ['catalogue:read', 'catalogue:write'] as const;
export const ApiKeyScopeSchema = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof ApiKeyScopeSchema>;

/**
 * An API key: a credential for technical users (pipelines), scoped to workspaces. The secret is shown
 * once, when the key is created; the registry keeps only its SHA-256 hash and a short prefix that
 * identifies it in lists and logs. A revoked or expired key is refused at once.
 */
export const ApiKeySchema = z
  .object({
    ...auditShape,
    name: z.string(),
    user_id: z.uuid().describe('The user the key acts as'),
    workspace_ids: z.array(z.uuid()),
    scopes: z.array(ApiKeyScopeSchema).describe('What the key reaches outside its workspaces'),
    prefix: z.string().describe('The first characters of the key, to recognise it'),
    expires_at: z.iso.datetime({ offset: true }).nullable(),
    last_used_at: z.iso.datetime({ offset: true }).nullable(),
    revoked_at: z.iso.datetime({ offset: true }).nullable(),
    revoked_by: z.uuid().nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** The create answer: the key's read shape plus the secret, which is never shown again. */
export const ApiKeyCreatedSchema = ApiKeySchema.extend({
  key: z.string().describe('The secret: send it as X-API-Key (or as a bearer token). Shown only once.'),
}).meta({ id: 'ApiKeyCreated' });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

export const CreateApiKeySchema = z
  .strictObject({
    name: text(255),
    workspace_ids: z.array(z.uuid()).min(1).max(100),
    scopes: z.array(ApiKeyScopeSchema).max(API_KEY_SCOPES.length).optional(),
    expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
    ...noteShape,
  })
  .meta({ id: 'CreateApiKey' });
export type CreateApiKey = z.input<typeof CreateApiKeySchema>;

/** Keys are not edited: revoke one and create another. */
export const UpdateApiKeySchema = z.strictObject({}).meta({ id: 'UpdateApiKey' });

export const apiKeyResource = defineResource({
  path: 'api-keys',
  tag: 'API keys',
  name: 'ApiKey',
  read: ApiKeySchema,
  create: CreateApiKeySchema,
  update: UpdateApiKeySchema,
  list: {
    filters: {
      user_id: { type: 'uuid', ops: ['eq'] },
      name: { type: 'string', ops: ['eq', 'like'] },
      prefix: { type: 'string', ops: ['eq'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['name', 'created_at', 'expires_at', 'last_used_at'],
    defaultSort: '-created_at',
    softDelete: false,
  },
  notFound: 'API_KEY_NOT_FOUND',
  // Any active user creates keys acting as themselves; revocation is the owner's or a superuser's.
  writeRole: 'user',
  keys: 'none',
  softDelete: false,
  batch: false,
  without: ['update', 'delete'],
  errors: ['WORKSPACE_NOT_FOUND'],
});
