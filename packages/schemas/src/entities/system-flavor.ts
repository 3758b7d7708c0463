import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape, softDeleteShape } from '../common/audit.js';
import { longText, text } from '../common/text.js';
import { defineResource } from '../resource.js';

/** A vendor/version family under a kind, e.g. `postgres14`, `iceberg_v2`. */
export const SystemFlavorSchema = z
  .object({
    ...auditShape,
    ...softDeleteShape,
    code: z.string(),
    name: z.string(),
    vendor: z.string().nullable(),
    versions: z.array(z.string()).nullable(),
    kind_id: z.uuid(),
  })
  .meta({ id: 'SystemFlavor' });
export type SystemFlavor = z.infer<typeof SystemFlavorSchema>;

const versions = z.array(text()).max(100);

export const CreateSystemFlavorSchema = z
  .strictObject({
    code: text(),
    name: longText(1000).min(1),
    vendor: longText(1000).nullable().optional(),
    versions: versions.nullable().optional(),
    kind_id: z.uuid(),
    ...noteShape,
  })
  .meta({ id: 'CreateSystemFlavor' });
export type CreateSystemFlavor = z.input<typeof CreateSystemFlavorSchema>;

export const UpdateSystemFlavorSchema = z
  .strictObject({
    code: text().optional(),
    name: longText(1000).min(1).optional(),
    vendor: longText(1000).nullable().optional(),
    versions: versions.nullable().optional(),
    kind_id: z.uuid().optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateSystemFlavor' });
export type UpdateSystemFlavor = z.input<typeof UpdateSystemFlavorSchema>;

export const systemFlavorResource = defineResource({
  path: 'system-flavors',
  tag: 'System flavors',
  name: 'SystemFlavor',
  read: SystemFlavorSchema,
  create: CreateSystemFlavorSchema,
  update: UpdateSystemFlavorSchema,
  list: {
    filters: {
      code: { type: 'string', ops: ['eq', 'like', 'in'] },
      name: { type: 'string', ops: ['eq', 'like'] },
      kind_id: { type: 'uuid', ops: ['eq', 'in'] },
      vendor: { type: 'string', ops: ['eq', 'like'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['code', 'name', 'vendor', 'created_at', 'updated_at'],
    defaultSort: 'code',
    softDelete: true,
  },
  notFound: 'SYSTEM_FLAVOR_NOT_FOUND',
  writeRole: 'superuser',
  keys: 'reference',
  softDelete: true,
  batch: false,
  errors: ['SYSTEM_FLAVOR_ALREADY_EXISTS', 'SYSTEM_KIND_NOT_FOUND', 'DATASET_SYSTEM_KIND_MISMATCH'],
});
