import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape, softDeleteShape } from '../common/audit.js';
import { longText, positiveInt32, text } from '../common/text.js';
import { defineResource } from '../resource.js';

/**
 * A pointer to a secret held elsewhere (vault, a cloud secret manager, a Kubernetes secret, env).
 * The registry never stores the secret itself.
 */
export const CredentialRefSchema = z
  .object({
    ...auditShape,
    ...softDeleteShape,
    provider: z.string(),
    path: z.string(),
    version: z.int().nullable(),
  })
  .meta({ id: 'CredentialRef' });
export type CredentialRef = z.infer<typeof CredentialRefSchema>;

export const CreateCredentialRefSchema = z
  .strictObject({
    provider: text(),
    path: longText(2000).min(1),
    version: positiveInt32.nullable().optional().describe('NULL means the latest version'),
    ...noteShape,
  })
  .meta({ id: 'CreateCredentialRef' });
export type CreateCredentialRef = z.input<typeof CreateCredentialRefSchema>;

export const UpdateCredentialRefSchema = z
  .strictObject({
    provider: text().optional(),
    path: longText(2000).min(1).optional(),
    version: positiveInt32.nullable().optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateCredentialRef' });
export type UpdateCredentialRef = z.input<typeof UpdateCredentialRefSchema>;

export const credentialRefResource = defineResource({
  path: 'credential-refs',
  tag: 'Credential refs',
  name: 'CredentialRef',
  read: CredentialRefSchema,
  create: CreateCredentialRefSchema,
  update: UpdateCredentialRefSchema,
  list: {
    filters: {
      provider: { type: 'string', ops: ['eq', 'like', 'in'] },
      path: { type: 'string', ops: ['eq', 'like'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['provider', 'path', 'created_at', 'updated_at'],
    defaultSort: 'provider,path',
    softDelete: true,
  },
  notFound: 'CREDENTIAL_REF_NOT_FOUND',
  // Pointers to secrets are reference data: only superusers write them.
  writeRole: 'superuser',
  keys: 'catalogue',
  softDelete: true,
  batch: false,
  errors: ['CREDENTIAL_REF_ALREADY_EXISTS'],
});
